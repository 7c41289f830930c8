import { Injectable } from '@nestjs/common';
import { type CheckedMessage, type MessageTypeParam, type ScheduledRecipient } from '@app/domain';
import type { UserDocument } from '../users/user.documents';
import { MessageSender } from '../messages/message-sender';
import type { SendRequest } from '../messages/send-message.command';

/** Where the request sends a scheduled message: a channel id, or user ids (recipient_parsing.py). */
export type ScheduledTarget = { type: 'stream'; streamId: number; topic: string | undefined } | { type: 'private'; userIds: number[] };

/** `type` as Zulip stores it: `stream` for channel/stream, `private` for direct/private. */
export const storedType = (type: MessageTypeParam): 'stream' | 'private' => (type === 'stream' || type === 'channel' ? 'stream' : 'private');

/** The send request a scheduled message amounts to (Addressee.legacy_build of its type, to, topic). */
export function sendRequestOf(target: ScheduledTarget, content: string, client: string): SendRequest {
  return target.type === 'stream'
    ? { type: 'stream' as const, to: String(target.streamId), topic: target.topic, content, client }
    : { type: 'direct' as const, to: JSON.stringify(target.userIds), topic: undefined, content, client };
}

export const targetOf = (recipient: ScheduledRecipient): ScheduledTarget =>
  recipient.type === 'stream' ? { type: 'stream', streamId: recipient.streamId, topic: recipient.topic } : { type: 'private', userIds: recipient.userIds };

/**
 * get_recipient_ids: a channel and topic, or the other participants of a direct message (the
 * sender alone for a message to oneself).
 */
export function recipientOf(checked: CheckedMessage, senderId: number): ScheduledRecipient {
  const { target } = checked;
  if (target.kind === 'channel') return { type: 'stream', streamId: target.channel.streamId, topic: target.topic };
  const others = target.participants.map((u) => u.userId).filter((id) => id !== senderId);
  return { type: 'private', userIds: others.length > 0 ? others : [senderId] };
}

/**
 * check_message for a scheduled message, through the MessageSender's own check: the same facts
 * and the same pure checks as POST /messages, so scheduling refuses exactly what a send would,
 * with the same errors (a delivery checks through the MessageSender directly).
 */
@Injectable()
export class ScheduledMessageCheck {
  constructor(private readonly sender: MessageSender) {}

  async check(
    sender: UserDocument,
    target: ScheduledTarget,
    content: string,
    client: string,
    now: string,
  ): Promise<{ checked: CheckedMessage; recipient: ScheduledRecipient; renderedContent: string; content: string }> {
    const checked = await this.sender.check(sender, sendRequestOf(target, content, client), now);
    return { checked, recipient: recipientOf(checked, sender.user_id), renderedContent: checked.rendered.html, content: checked.content };
  }
}
