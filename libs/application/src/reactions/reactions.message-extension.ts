import { Injectable } from '@nestjs/common';
import { type MessageExtension, MessageExtensions } from '../messages/message-extensions';
import type { NarrowCondition } from '../ports/user-message-store.port';
import { ReactionQueries } from './reaction.queries';

/** Reactions on message objects (`reactions`) and the `has:reaction` narrow. */
@Injectable()
export class ReactionsMessageExtension implements MessageExtension {
  readonly name = 'reactions';

  constructor(
    extensions: MessageExtensions,
    private readonly reactions: ReactionQueries,
  ) {
    extensions.register(this);
  }

  async messageFields(_realmId: number, messageIds: number[]): Promise<(messageId: number) => { reactions: unknown[] }> {
    const byMessage = await this.reactions.forMessages(messageIds);
    return (messageId) => ({ reactions: byMessage.get(messageId) ?? [] });
  }

  readonly narrowTerms = {
    // The per-user message index counts each message's reactions (the user-messages projection).
    'has:reaction': async (): Promise<NarrowCondition> => ({ kind: 'reacted' }),
  };
}
