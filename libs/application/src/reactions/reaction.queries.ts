import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import type { ReadStorePort } from '../ports/read-store.port';
import { APP_CONFIG, READ_STORE } from '../ports/tokens';
import { reactionTypeForClients } from '../server/version-fields';
import { type ApiReaction, MESSAGE_REACTIONS, type MessageReactionsDocument } from './reaction.documents';

/** Reads of the reactions read model: what message objects carry under `reactions`. */
@Injectable()
export class ReactionQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The reactions of these messages, by message id (messages without reactions are absent), with
   * `reaction_type` spelled for clients (`zulip_extra_emoji` under ZULIP_ALIASES).
   */
  async forMessages(messageIds: number[]): Promise<Map<number, ApiReaction[]>> {
    if (messageIds.length === 0) return new Map();
    const docs = await this.readStore.getMany<MessageReactionsDocument>(MESSAGE_REACTIONS, messageIds.map(String));
    const spell = (r: ApiReaction): ApiReaction =>
      r.reaction_type === 'svc_extra_emoji' ? { ...r, reaction_type: reactionTypeForClients(r.reaction_type, this.config) } : r;
    return new Map(docs.map((d) => [d.doc.message_id, d.doc.reactions.map(spell)]));
  }

}
