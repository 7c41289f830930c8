import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { automaticNewVisibilityPolicy, NoSuchUserError } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK } from '../ports/tokens';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { SendMessageCommand, type SendMessageResult } from './send-message.command';
import { MessageSender } from './message-sender';
import { SendMessageFactsLoader } from './send-message.facts-loader';

/**
 * POST /messages: the caller sends through the MessageSender (facts, checks, id, append), and
 * the answer waits until the read models show the message.
 */
@CommandHandler(SendMessageCommand)
export class SendMessageHandler implements ICommandHandler<SendMessageCommand> {
  constructor(
    private readonly messages: MessageSender,
    private readonly projections: ProjectionWaiter,
    private readonly facts: SendMessageFactsLoader,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, request }: SendMessageCommand): Promise<SendMessageResult> {
    const factsView = this.facts.view();
    const sender = actor.userId === null ? null : await this.facts.sender(actor.realmId, actor.userId, factsView);
    if (!sender) throw new NoSuchUserError();
    const { messageId, newEvents, position } = await this.messages.send(sender, request, this.clock.now().toISOString(), { factsView });
    await this.projections.waitFor(position);
    const policy = automaticNewVisibilityPolicy(newEvents, sender.user_id);
    return policy === undefined ? { id: messageId } : { id: messageId, automatic_new_visibility_policy: policy };
  }
}
