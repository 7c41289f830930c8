import type { Provider } from '@nestjs/common';
import { LINKIFIER_EVENT_TYPES, linkifiersDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { LinkifiersClientEvents } from './linkifiers.client-events';
import { LinkifiersRegisterSections } from './linkifiers.register';
import { AddLinkifierHandler, RemoveLinkifierHandler, ReorderLinkifiersHandler, UpdateLinkifierHandler } from './linkifier.handler';
import { LinkifierQueries } from './linkifier.queries';

const handlers: Provider[] = [AddLinkifierHandler, UpdateLinkifierHandler, RemoveLinkifierHandler, ReorderLinkifiersHandler];
const queries: Provider[] = [LinkifierQueries];

/** An organization's linkifiers. */
export const linkifiersArea = defineArea({
  name: 'linkifiers',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: LinkifiersClientEvents,
  registerSections: LinkifiersRegisterSections,
  deciders: [linkifiersDecider],
  events: LINKIFIER_EVENT_TYPES,
  idSequences: [{ sequence: 'linkifier', fields: ['linkifierId'] }],
});
