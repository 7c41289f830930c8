import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { type ApiRealmEmoji, REALM_EMOJI, type RealmEmojiDocument } from './realm-emoji.documents';

const toApi = (e: RealmEmojiDocument): ApiRealmEmoji => ({
  id: e.id, name: e.name, source_url: e.source_url, still_url: e.still_url, deactivated: e.deactivated, author_id: e.author_id,
});

/** Reads of the custom emoji read model. For the messaging core: `activeByName` resolves `:name:` and reactions. */
@Injectable()
export class RealmEmojiQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  private all(realmId: number): Promise<RealmEmojiDocument[]> {
    return this.readStore.find<RealmEmojiDocument>(REALM_EMOJI, { where: { realm_id: realmId } });
  }

  /** GET /realm/emoji: every emoji, deactivated ones too (they stay visible in old messages), keyed by id. */
  async list(realmId: number): Promise<Record<string, ApiRealmEmoji>> {
    const emoji = await this.all(realmId);
    return Object.fromEntries(emoji.sort((a, b) => Number(a.id) - Number(b.id)).map((e) => [e.id, toApi(e)]));
  }

  async activeByName(realmId: number, name: string): Promise<ApiRealmEmoji | null> {
    const found = (await this.all(realmId)).find((e) => e.name === name && !e.deactivated);
    return found ? toApi(found) : null;
  }

  /** The emoji whose image has this file name (deactivated ones included). */
  async byFileName(realmId: number, fileName: string): Promise<RealmEmojiDocument | null> {
    return (await this.all(realmId)).find((e) => e.file_name === fileName) ?? null;
  }
}
