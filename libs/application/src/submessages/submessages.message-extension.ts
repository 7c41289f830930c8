import { Injectable } from '@nestjs/common';
import { type MessageExtension, MessageExtensions } from '../messages/message-extensions';
import { SubmessageQueries } from './submessage.queries';

/** Submessages (widgets: polls, to-do lists) on message objects (`submessages`). */
@Injectable()
export class SubmessagesMessageExtension implements MessageExtension {
  readonly name = 'submessages';

  constructor(
    extensions: MessageExtensions,
    private readonly submessages: SubmessageQueries,
  ) {
    extensions.register(this);
  }

  async messageFields(_realmId: number, messageIds: number[]): Promise<(messageId: number) => { submessages: unknown[] }> {
    const byMessage = await this.submessages.forMessages(messageIds);
    return (messageId) => ({ submessages: byMessage.get(messageId) ?? [] });
  }
}
