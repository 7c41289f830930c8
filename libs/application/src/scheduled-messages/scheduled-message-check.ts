import { Injectable } from '@nestjs/common';
import {
  checkSendMessage,
  type CheckedMessage,
  type MessageTypeParam,
  parseAddressee,
  type ScheduledMessageBody,
  type ScheduledRecipient,
  type SendMessageFacts,
} from '@app/domain';
import type { UserDocument } from '../users/user.documents';
import { SendMessageCommand } from '../messages/send-message.command';
import { SendMessageFactsLoader } from '../messages/send-message.facts-loader';

/** Where the request sends a scheduled message: a channel id, or user ids (recipient_parsing.py). */
export type ScheduledTarget = { type: 'stream'; streamId: number; topic: string | undefined } | { type: 'private'; userIds: number[] };

/** `type` as Zulip stores it: `stream` for channel/stream, `private` for direct/private. */
export const storedType = (type: MessageTypeParam): 'stream' | 'private' => (type === 'stream' || type === 'channel' ? 'stream' : 'private');

/** The send request a scheduled message amounts to (Addressee.legacy_build of its type, to, topic). */
export function sendRequestOf(target: ScheduledTarget, content: string, client: string) {
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
 * check_message for a scheduled message, through the send pipeline itself: the same facts loader
 * and the same pure checks as POST /messages, so scheduling (and delivery) refuse exactly what a
 * send would, with the same errors.
 */
@Injectable()
export class ScheduledMessageCheck {
  constructor(private readonly factsLoader: SendMessageFactsLoader) {}

  async check(
    sender: UserDocument,
    target: ScheduledTarget,
    content: string,
    client: string,
    now: string,
  ): Promise<{ facts: SendMessageFacts; checked: CheckedMessage; recipient: ScheduledRecipient; renderedContent: string; content: string }> {
    const request = sendRequestOf(target, content, client);
    const addressee = parseAddressee(request.type, request.to, request.topic);
    const actor = { realmId: sender.realm_id, userId: sender.user_id, role: sender.role_name, isBot: sender.is_bot };
    const facts = await this.factsLoader.load(new SendMessageCommand({ actor }, request), sender, addressee, now);
    const checked = checkSendMessage(facts);
    return { facts, checked, recipient: recipientOf(checked, sender.user_id), renderedContent: checked.rendered.html, content: checked.content };
  }
}

export const bodyOf = (checked: { recipient: ScheduledRecipient; content: string; renderedContent: string }, deliverAt: number, client: string): ScheduledMessageBody => ({
  recipient: checked.recipient,
  content: checked.content,
  renderedContent: checked.renderedContent,
  deliverAt,
  client,
});
