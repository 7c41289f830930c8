import { Command } from '@nestjs/cqrs';
import type { BotType, Role } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

export type CreateUserResult = { userId: number; apiKey: string };

export class CreateUserCommand extends Command<CreateUserResult> {
  constructor(
    readonly context: CommandContext,
    readonly user: {
      email: string;
      fullName: string;
      role: Role;
      /** Plain text; hashed into the credential store, never into an event. Null: the account cannot log in with a password. */
      password: string | null;
      bot?: { type: BotType; ownerId: number };
      timezone?: string;
      /**
       * Whether a person joins the organization's default channels (absent: yes; bots never do).
       * An invitation without include_realm_default_subscriptions passes false.
       */
      joinDefaultChannels?: boolean;
      /** An id allocated beforehand (from the `user` sequence): the sign-up records it on the invitation first. */
      userId?: number;
    },
  ) {
    super();
  }
}
