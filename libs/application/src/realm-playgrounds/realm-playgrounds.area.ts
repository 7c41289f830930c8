import type { Provider } from '@nestjs/common';
import { REALM_PLAYGROUND_EVENT_TYPES, realmPlaygroundsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { RealmPlaygroundsClientEvents } from './realm-playgrounds.client-events';
import { RealmPlaygroundsRegisterSections } from './realm-playgrounds.register';
import { AddRealmPlaygroundHandler, RemoveRealmPlaygroundHandler } from './realm-playground.handler';
import { RealmPlaygroundQueries } from './realm-playground.queries';

const handlers: Provider[] = [AddRealmPlaygroundHandler, RemoveRealmPlaygroundHandler];
const queries: Provider[] = [RealmPlaygroundQueries];

/** An organization's code playgrounds. */
export const realmPlaygroundsArea = defineArea({
  name: 'realm-playgrounds',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: RealmPlaygroundsClientEvents,
  registerSections: RealmPlaygroundsRegisterSections,
  deciders: [realmPlaygroundsDecider],
  events: REALM_PLAYGROUND_EVENT_TYPES,
  idSequences: [{ sequence: 'realm_playground', fields: ['playgroundId'] }],
});
