import { botStorageDecider, botStorageStream } from '@app/domain';
import { DeciderCommandHandler } from '../shared/decider-command-handler';

/** A bot's storage: one append on `bot_storage-<botId>`. */
export const botStorageHandler = DeciderCommandHandler({ ...botStorageDecider, mapToStreamId: ({ data }) => botStorageStream(data.botId) });
