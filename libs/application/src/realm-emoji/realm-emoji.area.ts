import type { Provider } from '@nestjs/common';
import { REALM_EMOJI_EVENT_TYPES, realmEmojiDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { RealmEmojiClientEvents } from './realm-emoji.client-events';
import { RealmEmojiRegisterSections } from './realm-emoji.register';
import { AddRealmEmojiHandler, RemoveRealmEmojiHandler } from './realm-emoji.handler';
import { RealmEmojiQueries } from './realm-emoji.queries';

const handlers: Provider[] = [AddRealmEmojiHandler, RemoveRealmEmojiHandler];
const queries: Provider[] = [RealmEmojiQueries];

/** An organization's custom emoji. */
export const realmEmojiArea = defineArea({
  name: 'realm-emoji',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: RealmEmojiClientEvents,
  registerSections: RealmEmojiRegisterSections,
  deciders: [realmEmojiDecider],
  events: REALM_EMOJI_EVENT_TYPES,
  idSequences: [{ sequence: 'realm_emoji', fields: ['emojiId'] }],
});
