import { AddRealmPlaygroundHandler, RemoveRealmPlaygroundHandler } from './realm-playground.handler';
import { RealmPlaygroundQueries } from './realm-playground.queries';

export const REALM_PLAYGROUNDS_HANDLERS = [AddRealmPlaygroundHandler, RemoveRealmPlaygroundHandler];
export const REALM_PLAYGROUNDS_QUERIES = [RealmPlaygroundQueries];
