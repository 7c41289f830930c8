import { DomainError, type UserSettingValues } from '@app/domain';

/** POST /typing's parameters (zerver/views/typing.py send_notification_backend). */
export type TypingRequest = {
  op: 'start' | 'stop';
  /** Kind of conversation: `direct` (the default, also `private`) or `stream` / `channel`. */
  type?: 'direct' | 'stream' | 'channel' | 'private';
  to?: number[];
  stream_id?: number;
  topic?: string;
};

export type TypingConversation =
  | { kind: 'stream'; streamId: number; topic: string }
  /** The recipients' ids with the sender's, each once, in the order given. */
  | { kind: 'direct'; userIds: number[] };

type SenderSettings = Pick<UserSettingValues, 'send_stream_typing_notifications' | 'send_private_typing_notifications'>;

/**
 * Which conversation a typing notification is for, with Zulip's errors in Zulip's order (the missing
 * argument first, then the sender's own setting), before anything about the recipients is read.
 */
export function typingConversation(senderId: number, request: TypingRequest, sender: SenderSettings): TypingConversation {
  if (request.type === 'channel' || request.type === 'stream') {
    if (request.stream_id === undefined) throw new DomainError("Missing 'stream_id' argument");
    if (request.topic === undefined) throw new DomainError('Missing topic');
    if (!sender.send_stream_typing_notifications) throw new DomainError('User has disabled typing notifications for channel messages');
    return { kind: 'stream', streamId: request.stream_id, topic: request.topic };
  }
  if (request.to === undefined) throw new DomainError("Missing 'to' argument");
  if (request.to.length === 0) throw new DomainError("Empty 'to' list");
  if (!sender.send_private_typing_notifications) throw new DomainError('User has disabled typing notifications for direct messages');
  return { kind: 'direct', userIds: [...new Set([...request.to, senderId])] };
}

/** Who hears it: only users with `receives_typing_notifications` on (do_send_typing_notification); unknown settings count as the default, on. */
export function typingReceivers(userIds: number[], settings: Map<number, Pick<UserSettingValues, 'receives_typing_notifications'>>): number[] {
  return userIds.filter((id) => settings.get(id)?.receives_typing_notifications ?? true);
}
