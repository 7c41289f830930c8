import { Inject, Injectable } from '@nestjs/common';
import type { CustomEmojiFact } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';

/**
 * The organization's custom emoji, for checking emoji in statuses (and reactions). Seam: the
 * custom emoji area may bind its own implementation in its descriptor.
 */
export abstract class CustomEmojiLookup {
  /** The emoji with this id (deactivated ones too), or null. */
  abstract byId(realmId: number, id: string): Promise<CustomEmojiFact | null>;
  /** The active emoji of this name, or null. */
  abstract activeByName(realmId: number, name: string): Promise<CustomEmojiFact | null>;
}

/** A document of Zulip's RealmEmoji shape (`id`, `name`, `deactivated`), with its organization. */
type RealmEmojiDocument = { id: string | number; name: string; deactivated: boolean; realm_id?: number };
/** The custom emoji area's collection (realm-emoji). */
const CUSTOM_EMOJI_COLLECTION = 'realm_emoji';

const fact = (doc: RealmEmojiDocument): CustomEmojiFact => ({ id: String(doc.id), name: doc.name, deactivated: doc.deactivated });

/**
 * Reads the `realm_emoji` read model when one is registered; while none is (custom emoji are
 * another area's), there are no custom emoji, and a `realm_emoji` status is "Invalid custom emoji.".
 */
@Injectable()
export class ReadModelCustomEmojiLookup extends CustomEmojiLookup {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {
    super();
  }

  async byId(realmId: number, id: string): Promise<CustomEmojiFact | null> {
    const doc = await this.attempt(() => this.readStore.get<RealmEmojiDocument>(CUSTOM_EMOJI_COLLECTION, id));
    return doc && (doc.realm_id === undefined || doc.realm_id === realmId) ? fact(doc) : null;
  }

  async activeByName(realmId: number, name: string): Promise<CustomEmojiFact | null> {
    const docs = await this.attempt(() => this.readStore.find<RealmEmojiDocument>(CUSTOM_EMOJI_COLLECTION, { where: { realm_id: realmId } }));
    const doc = docs?.find((d) => d.name === name && !d.deactivated);
    return doc ? fact(doc) : null;
  }

  /**
   * The embedded read store refuses a collection nobody registered (or a field it does not index):
   * no read model, no custom emoji. Any other failure is a real one.
   */
  private async attempt<T>(read: () => Promise<T>): Promise<T | null> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof Error && /was not ensured|is not an indexed field/.test(error.message)) return null;
      throw error;
    }
  }
}
