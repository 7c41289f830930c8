import { ChangeChannelFolderHandler } from '../channels/change-channel-folder.handler';
import { ChannelFolderQueries } from './channel-folder.queries';
import { CreateChannelFolderHandler } from './create-channel-folder.handler';
import { ReorderChannelFoldersHandler } from './reorder-channel-folders.handler';
import { UpdateChannelFolderHandler } from './update-channel-folder.handler';

export const CHANNEL_FOLDERS_HANDLERS = [CreateChannelFolderHandler, UpdateChannelFolderHandler, ReorderChannelFoldersHandler, ChangeChannelFolderHandler];
export const CHANNEL_FOLDERS_QUERIES = [ChannelFolderQueries];
