import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { UserQueries } from '../users/user-queries';
import { ALERT_WORDS, type AlertWordsDocument } from './alert-word.documents';

/** Reads of the alert-words read model: GET /users/me/alert_words, `/register`, and the facts of sends and edits. */
@Injectable()
export class AlertWordQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly users: UserQueries,
  ) {}

  /** The user's alert words, in the order they were added (user_alert_words). */
  async wordsOf(userId: number): Promise<string[]> {
    return (await this.readStore.get<AlertWordsDocument>(ALERT_WORDS, String(userId)))?.alert_words ?? [];
  }

  /**
   * alert_words_in_realm: the words of every active user of the organization who has some, by
   * user id. Few users set alert words, so this is one indexed query plus a lookup per such user.
   */
  async wordsInRealm(realmId: number): Promise<Record<number, string[]>> {
    const docs = await this.readStore.find<AlertWordsDocument>(ALERT_WORDS, { where: { realm_id: realmId } });
    const result: Record<number, string[]> = {};
    for (const doc of docs) {
      if (doc.alert_words.length === 0) continue;
      const user = await this.users.byId(realmId, doc.user_id);
      if (user?.is_active) result[doc.user_id] = doc.alert_words;
    }
    return result;
  }
}
