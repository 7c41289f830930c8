import { Command } from '@nestjs/cqrs';
import type { BusMessage } from '../events/client-event-bus';
import type { CommandContext } from '../shared/command-context';
import type { TypingRequest } from './typing-notification.rules';

/**
 * `POST /typing`: tells a conversation's recipients that the caller started or stopped typing.
 * Typing notifications are not facts worth keeping: nothing goes to the log; the result is the
 * `typing` event to publish on the client-event bus (every API instance), or null when nobody
 * receives it (the bus belongs to the HTTP process: the controller publishes, as for presence).
 */
export class SendTypingNotificationCommand extends Command<{ notification: BusMessage | null }> {
  constructor(
    readonly context: CommandContext,
    readonly request: TypingRequest,
  ) {
    super();
  }
}
