import { realmDecider, realmRegistryDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { ChangeRealmSettingsHandler } from './change-realm-settings.handler';
import { CreateRealmHandler } from './create-realm.handler';
import { DeactivateRealmHandler } from './deactivate-realm.handler';
import { ReactivateRealmHandler } from './reactivate-realm.handler';
import { RealmQueries } from './realm.queries';
import { RealmsClientEvents } from './realms.client-events';
import { RealmsRegisterSections } from './realms.register';

const queries = [RealmQueries];

/** Organizations: their creation, settings and deactivation. */
export const realmsArea = defineArea({
  name: 'realms',
  providers: [CreateRealmHandler, ChangeRealmSettingsHandler, DeactivateRealmHandler, ReactivateRealmHandler, ...queries],
  exports: queries,
  clientEvents: RealmsClientEvents,
  registerSections: RealmsRegisterSections,
  deciders: [realmRegistryDecider, realmDecider],
  events: ['RealmCreated', 'RealmPropertyChanged', 'RealmGroupSettingChanged', 'RealmDeactivated', 'RealmReactivated'],
});
