import { Inject, Injectable } from '@nestjs/common';
import { BotStorageKeyDoesNotExistError } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { BOT_STORAGE, botStorageDocumentId, type BotStorageDocument } from './bot-storage.documents';

/** Reads of a bot's storage (zerver/views/storage.py get_storage). */
@Injectable()
export class BotStorageQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /**
   * The named entries, in the order named ("Key does not exist." if one is missing), or every
   * entry, by key, when none (or an empty list) are named.
   */
  async storage(botId: number, keys?: string[]): Promise<Record<string, string>> {
    if (!keys || keys.length === 0) {
      const docs = await this.readStore.find<BotStorageDocument>(BOT_STORAGE, { where: { bot_id: botId } });
      docs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return Object.fromEntries(docs.map((d) => [d.key, d.value]));
    }
    const unique = [...new Set(keys)];
    const found = await this.readStore.getMany<BotStorageDocument>(BOT_STORAGE, unique.map((key) => botStorageDocumentId(botId, key)));
    const values = new Map(found.map(({ doc }) => [doc.key, doc.value]));
    for (const key of unique) if (!values.has(key)) throw new BotStorageKeyDoesNotExistError();
    return Object.fromEntries(unique.map((key) => [key, values.get(key)!]));
  }
}
