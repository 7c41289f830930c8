import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { automaticNewVisibilityPolicy, checkSendMessage, messageDecider, messageStream, NoSuchUserError, parseAddressee } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { UserQueries } from '../users/user-queries';
import { defaultReadBySender, SendMessageCommand, type SendMessageResult } from './send-message.command';
import { SendMessageFactsLoader } from './send-message.facts-loader';

/**
 * POST /messages: parse the addressee, look up what it names, check everything (before taking a
 * message id, so that a refused message leaves no trace), take the next message id, append
 * `MessageSent` (and the automatic topic visibility changes) to `message-<id>`, and answer once the
 * read models show the message.
 */
@CommandHandler(SendMessageCommand)
export class SendMessageHandler implements ICommandHandler<SendMessageCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly users: UserQueries,
    private readonly factsLoader: SendMessageFactsLoader,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute(command: SendMessageCommand): Promise<SendMessageResult> {
    const { actor } = command.context;
    const { request } = command;
    const sender = actor.userId === null ? null : await this.users.byId(actor.realmId, actor.userId);
    if (!sender) throw new NoSuchUserError();
    const addressee = parseAddressee(request.type, request.to, request.topic);
    const facts = await this.factsLoader.load(command, sender, addressee, this.clock.now().toISOString());
    facts.readBySender = request.readBySender ?? defaultReadBySender(request.client);
    // One object for the check and the decision, so the decider reuses this check (one rendering).
    const data = { ...facts, messageId: 0 };
    checkSendMessage(data);
    const messageId = (data.messageId = await this.ids.next('message'));
    const { newEvents, position } = await this.runner.run(
      messageDecider,
      messageStream(messageId),
      { type: 'SendMessage', data },
      { actorId: actor.userId },
      { newStream: true }, // the id was just allocated
    );
    await this.projections.waitFor(position);
    const policy = automaticNewVisibilityPolicy(newEvents, sender.user_id);
    return policy === undefined ? { id: messageId } : { id: messageId, automatic_new_visibility_policy: policy };
  }
}
