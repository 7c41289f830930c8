import type { Provider } from '@nestjs/common';
import { ChangeRealmSettingsHandler } from './change-realm-settings.handler';
import { CreateRealmHandler } from './create-realm.handler';
import { DeactivateRealmHandler } from './deactivate-realm.handler';
import { ReactivateRealmHandler } from './reactivate-realm.handler';
import { RealmQueries } from './realm.queries';

/** The realms area's handlers and queries, registered by ApplicationModule. */
export const REALMS_HANDLERS: Provider[] = [CreateRealmHandler, ChangeRealmSettingsHandler, DeactivateRealmHandler, ReactivateRealmHandler];
export const REALMS_QUERIES: Provider[] = [RealmQueries];
