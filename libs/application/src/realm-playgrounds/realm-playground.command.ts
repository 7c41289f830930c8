import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /realm/playgrounds` (add_realm_playground): values as sent; the decider strips and checks them. */
export class AddRealmPlaygroundCommand extends Command<{ id: number }> {
  constructor(
    readonly context: CommandContext,
    readonly playground: { name: string; pygmentsLanguage: string; urlTemplate: string },
  ) {
    super();
  }
}

/** `DELETE /realm/playgrounds/{playground_id}` (delete_realm_playground). */
export class RemoveRealmPlaygroundCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly playgroundId: number,
  ) {
    super();
  }
}
