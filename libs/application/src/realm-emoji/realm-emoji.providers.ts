import { AddRealmEmojiHandler, RemoveRealmEmojiHandler } from './realm-emoji.handler';
import { RealmEmojiQueries } from './realm-emoji.queries';

export const REALM_EMOJI_HANDLERS = [AddRealmEmojiHandler, RemoveRealmEmojiHandler];
export const REALM_EMOJI_QUERIES = [RealmEmojiQueries];
