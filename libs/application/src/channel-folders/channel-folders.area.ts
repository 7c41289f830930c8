import type { Provider } from '@nestjs/common';
import { CHANNEL_FOLDER_EVENT_TYPES, channelFoldersDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { ChannelFoldersClientEvents } from './channel-folders.client-events';
import { ChannelFoldersRegisterSections } from './channel-folders.register';
import { ChangeChannelFolderHandler } from './change-channel-folder.handler';
import { ChannelFolderQueries } from './channel-folder.queries';
import { CreateChannelFolderHandler } from './create-channel-folder.handler';
import { ReorderChannelFoldersHandler } from './reorder-channel-folders.handler';
import { UpdateChannelFolderHandler } from './update-channel-folder.handler';

const handlers: Provider[] = [CreateChannelFolderHandler, UpdateChannelFolderHandler, ReorderChannelFoldersHandler, ChangeChannelFolderHandler];
const queries: Provider[] = [ChannelFolderQueries];

/** Channel folders (moving a channel into one is registered here too). */
export const channelFoldersArea = defineArea({
  name: 'channel-folders',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: ChannelFoldersClientEvents,
  registerSections: ChannelFoldersRegisterSections,
  deciders: [channelFoldersDecider],
  events: CHANNEL_FOLDER_EVENT_TYPES,
  idSequences: [{ sequence: 'channel_folder', fields: ['folderId'] }],
});
