import { Inject, Injectable } from '@nestjs/common';
import { type CheckedMessage, checkSendMessage, type MessageEditEvent, messageDecider, messageStream, parseAddressee, type SendMessage, checkWidgetContent, widgetOf } from '@app/domain';
import type { GlobalPosition } from '../ports/event-store.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { ID_ALLOCATOR } from '../ports/tokens';
import { DeciderRunner, type RunResult } from '../shared/decider-runner';
import type { UserDocument } from '../users/user.documents';
import type { SendRequest } from './send-message.command';
import { SendMessageFactsLoader, type SendFactsView } from './send-message.facts-loader';

export type SendOptions = {
  /**
   * The sender is one of Zulip's system bots (Notification Bot): it posts in any channel, as
   * check_message skips the channel posting checks for them.
   */
  systemBot?: boolean;
  /** The cached reads already begun for this send (its sender's): one change check for all. */
  factsView?: SendFactsView;
};

/** A message sent: its id, the events appended to `message-<id>`, and their position (to wait for). */
export type SentMessage = { messageId: number; newEvents: MessageEditEvent[]; position: GlobalPosition | undefined };

/**
 * The one way a message gets sent (check_send_message, then do_send_messages), for every path:
 * POST /messages, Notification Bot's notices, scheduled deliveries.
 *
 * 1. `check`: the facts the request needs are loaded once (SendMessageFactsLoader) and checked
 *    once (checkSendMessage, which renders the Markdown). A refused send ends here and leaves no
 *    trace: no message id is taken.
 * 2. `nextMessageId`: the message id, taken once.
 * 3. `append`: the checked message appended to `message-<id>` through the DeciderRunner
 *    (messageDecider), which refuses a second message under one id (MessageAlreadySentError).
 *
 * `send` is the three in a row; where the event store keeps the id sequences itself (the embedded
 * store) steps 2 and 3 are one write transaction (DeciderRunner.runWithNextId), so an id is taken
 * only with its message. A scheduled delivery runs them apart, because its claim records the id
 * before the message exists. Waiting for the read models is the caller's (one wait for a
 * batch of notices).
 */
@Injectable()
export class MessageSender {
  constructor(
    private readonly factsLoader: SendMessageFactsLoader,
    private readonly runner: DeciderRunner,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  /** The send as checked now, or Zulip's refusal (a DomainError); takes no id and appends nothing. */
  async check(sender: UserDocument, request: SendRequest, now: string, options: SendOptions = {}): Promise<CheckedMessage> {
    const addressee = parseAddressee(request.type, request.to, request.topic);
    const facts = await this.factsLoader.load(request, sender, addressee, now, options.factsView);
    if (options.systemBot) {
      facts.senderMayPost = true;
      facts.botOwnerSubscribed = true;
    }
    return checkSendMessage(facts);
  }

  nextMessageId(): Promise<number> {
    return this.ids.next('message');
  }

  /** The id of the widget submessage a `/poll` or `/todo` message is sent with (sequence `submessage`); none for other content. */
  private async widgetSubmessageId(message: CheckedMessage): Promise<number | undefined> {
    return widgetOf(message.content) === null ? undefined : this.ids.next('submessage');
  }

  /**
   * Appends the checked message as message `messageId`. `fresh`: the id was just taken, so the
   * stream cannot exist and is not read first. Throws MessageAlreadySentError when the stream
   * already holds a message (a racing delivery of the same claim).
   */
  async append(message: CheckedMessage, messageId: number, options: { fresh?: boolean; metadata?: Record<string, unknown> } = {}): Promise<RunResult<MessageEditEvent>> {
    const widgetSubmessageId = await this.widgetSubmessageId(message);
    return this.runner.run(
      messageDecider,
      messageStream(messageId),
      { type: 'SendMessage', data: { messageId, message, ...(widgetSubmessageId === undefined ? {} : { widgetSubmessageId }) } },
      { actorId: message.facts.sender.userId, ...options.metadata },
      { newStream: options.fresh === true },
    );
  }

  /**
   * Check, take an id, append: the id and the append in one write where the event store keeps
   * the id sequences itself (the embedded store; DeciderRunner.runWithNextId), else one after the other.
   */
  async send(sender: UserDocument, request: SendRequest, now: string, options: SendOptions = {}): Promise<SentMessage> {
    const message = await this.check(sender, request, now, options);
    const widgetContent = request.widgetContent === undefined ? undefined : checkWidgetContent(request.widgetContent);
    const widgetSubmessageId = widgetContent ? await this.ids.next('submessage') : await this.widgetSubmessageId(message);
    const widget = widgetSubmessageId === undefined ? {} : { widgetSubmessageId, ...(widgetContent ? { widgetContent } : {}) };
    const together = await this.runner.runWithNextId(messageDecider, 'message', messageStream, (messageId): SendMessage => ({ type: 'SendMessage', data: { messageId, message, ...widget } }), {
      actorId: message.facts.sender.userId,
    });
    if (together) return { messageId: together.id, newEvents: together.newEvents, position: together.position };
    const messageId = await this.nextMessageId();
    const { newEvents, position } = await this.runner.run(
      messageDecider,
      messageStream(messageId),
      { type: 'SendMessage', data: { messageId, message, ...widget } },
      { actorId: message.facts.sender.userId },
      { newStream: true },
    );
    return { messageId, newEvents, position };
  }
}
