import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** Zulip's do_reactivate_realm (a server administrator's action; no API endpoint). A no-op when active. */
export class ReactivateRealmCommand extends Command<void> {
  constructor(readonly context: CommandContext) {
    super();
  }
}
