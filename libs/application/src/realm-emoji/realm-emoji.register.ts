import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { RealmEmojiQueries } from './realm-emoji.queries';

/** `realm_emoji`: the organization's custom emoji. */
@Injectable()
export class RealmEmojiRegisterSections implements AreaRegisterSections {
  constructor(private readonly realmEmoji: RealmEmojiQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'realm_emoji', read: async (actor) => ({ realm_emoji: await this.realmEmoji.list(actor.realmId) }) }];
  }
}
