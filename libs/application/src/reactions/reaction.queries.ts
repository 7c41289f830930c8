import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { type ApiReaction, MESSAGE_REACTIONS, type MessageReactionsDocument } from './reaction.documents';

/** Reads of the reactions read model: what message objects carry under `reactions`. */
@Injectable()
export class ReactionQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /** The reactions of these messages, by message id (messages without reactions are absent). */
  async forMessages(messageIds: number[]): Promise<Map<number, ApiReaction[]>> {
    if (messageIds.length === 0) return new Map();
    const docs = await this.readStore.getMany<MessageReactionsDocument>(MESSAGE_REACTIONS, messageIds.map(String));
    return new Map(docs.map((d) => [d.doc.message_id, d.doc.reactions]));
  }

  /**
   * has:reaction: the ids of the organization's messages with at least one reaction (one read of
   * the reactions read model by its realm_id index; access is the narrow's other conditions' job).
   */
  async messageIdsWithReactions(realmId: number): Promise<number[]> {
    const docs = await this.readStore.find<MessageReactionsDocument>(MESSAGE_REACTIONS, { where: { realm_id: realmId } });
    return docs.filter((d) => d.reactions.length > 0).map((d) => d.message_id);
  }
}
