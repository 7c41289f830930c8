import type { Actor } from '@app/domain';

/** What every command carries besides its own parameters. */
export type CommandContext = { actor: Actor };
