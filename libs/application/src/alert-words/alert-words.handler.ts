import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { alertWordsDecider, alertWordsStream, type Actor } from '@app/domain';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { ownUserId } from '../shared/own-user-id';
import { AlertWordQueries } from './alert-word.queries';
import { AddAlertWordsCommand, RemoveAlertWordsCommand } from './alert-words.command';

/** Both directions on the user's stream `alert_words-<userId>`. */
const alertWords = DeciderCommandHandler({ ...alertWordsDecider, mapToStreamId: ({ data }) => alertWordsStream(data.userId) });

/** The answer is the list once the read model has it. */
async function change(commands: DeciderCommands, queries: AlertWordQueries, type: 'AddAlertWords' | 'RemoveAlertWords', actor: Actor, words: string[]): Promise<string[]> {
  const userId = ownUserId(actor);
  await alertWords(commands, actor, ({ realmId, now }) => ({ type, data: { realmId, userId, now, words } }));
  return queries.wordsOf(userId);
}

@CommandHandler(AddAlertWordsCommand)
export class AddAlertWordsHandler implements ICommandHandler<AddAlertWordsCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly queries: AlertWordQueries,
  ) {}

  execute({ context: { actor }, words }: AddAlertWordsCommand): Promise<string[]> {
    return change(this.commands, this.queries, 'AddAlertWords', actor, words);
  }
}

@CommandHandler(RemoveAlertWordsCommand)
export class RemoveAlertWordsHandler implements ICommandHandler<RemoveAlertWordsCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    private readonly queries: AlertWordQueries,
  ) {}

  execute({ context: { actor }, words }: RemoveAlertWordsCommand): Promise<string[]> {
    return change(this.commands, this.queries, 'RemoveAlertWords', actor, words);
  }
}
