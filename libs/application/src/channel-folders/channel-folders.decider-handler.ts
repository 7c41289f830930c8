import { channelFoldersDecider, channelFoldersStream } from '@app/domain';
import { DeciderCommandHandler } from '../shared/decider-command-handler';

/** The channel folder commands: one append on the organization's `channel_folders-<realmId>`. */
export const channelFoldersHandler = DeciderCommandHandler({ ...channelFoldersDecider, mapToStreamId: ({ data }) => channelFoldersStream(data.realmId) });
