import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { USERS, type UserDocument } from '../users/user.documents';
import { ALERT_WORDS, type AlertWordsDocument } from './alert-word.documents';

/** Reads of the alert-words read model: GET /users/me/alert_words, `/register`, and the facts of sends and edits. */
@Injectable()
export class AlertWordQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /** The user's alert words, in the order they were added (user_alert_words). */
  async wordsOf(userId: number): Promise<string[]> {
    return (await this.readStore.get<AlertWordsDocument>(ALERT_WORDS, String(userId)))?.alert_words ?? [];
  }

  /**
   * alert_words_in_realm: the words of every active user of the organization who has some, by
   * user id: one indexed query and one bulk read of those users' accounts.
   */
  async wordsInRealm(realmId: number): Promise<Record<number, string[]>> {
    const docs = (await this.readStore.find<AlertWordsDocument>(ALERT_WORDS, { where: { realm_id: realmId } })).filter((d) => d.alert_words.length > 0);
    if (docs.length === 0) return {};
    const active = new Set(
      (await this.readStore.getMany<UserDocument>(USERS, docs.map((d) => String(d.user_id)))).filter(({ doc }) => doc.is_active && doc.realm_id === realmId).map(({ doc }) => doc.user_id),
    );
    return Object.fromEntries(docs.filter((d) => active.has(d.user_id)).map((d) => [d.user_id, d.alert_words]));
  }
}
