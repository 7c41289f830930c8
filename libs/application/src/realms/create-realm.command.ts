import { Command } from '@nestjs/cqrs';

export class CreateRealmCommand extends Command<{ realmId: number }> {
  constructor(
    readonly stringId: string,
    readonly name: string,
    readonly description = '',
  ) {
    super();
  }
}
