import { Command } from '@nestjs/cqrs';
import type { RealmDeactivationReason } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

/**
 * Zulip's `DELETE /realm` (owners; do_deactivate_realm). Afterwards every login and API key of the
 * organization fails with "This organization has been deactivated". Deactivating twice is a no-op.
 */
export class DeactivateRealmCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly reason: RealmDeactivationReason = 'owner_request',
  ) {
    super();
  }
}
