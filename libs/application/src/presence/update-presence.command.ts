import { Command } from '@nestjs/cqrs';
import type { PresenceStatus } from '@app/domain';
import type { BusMessage } from '../events/client-event-bus';
import type { CommandContext } from '../shared/command-context';

/**
 * `POST /users/me/presence` (update_active_status_backend): records one ping of the caller. The
 * result is the live `presence` event to publish on the client-event bus, when the ping brought
 * the user online (the bus belongs to the HTTP process: the controller publishes).
 */
export class UpdatePresenceCommand extends Command<{ announcement: BusMessage | null }> {
  constructor(
    readonly context: CommandContext,
    readonly status: PresenceStatus,
  ) {
    super();
  }
}
