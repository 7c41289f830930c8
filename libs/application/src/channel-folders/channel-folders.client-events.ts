import { Injectable } from '@nestjs/common';
import {
  type ChannelFolderArchived,
  type ChannelFolderCreated,
  type ChannelFolderDescriptionChanged,
  type ChannelFolderNameChanged,
  type ChannelFoldersReordered,
  type ChannelFolderUnarchived,
  unixSeconds,
} from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toRealm } from '../events/deliveries';

/** `channel_folder` events (zerver/actions/channel_folders.py) to everyone in the organization. */
@Injectable()
export class ChannelFoldersClientEvents implements AreaClientEvents {
  clientEvents(): ClientEventMapperList {
    return {
      ChannelFolderCreated: (e: Recorded<ChannelFolderCreated>, c) =>
        toRealm(c, e.data.realmId, {
          type: 'channel_folder',
          op: 'add',
          channel_folder: {
            id: e.data.folderId,
            name: e.data.name,
            description: e.data.description,
            rendered_description: e.data.renderedDescription,
            order: e.data.order,
            date_created: unixSeconds(e.data.at),
            creator_id: e.data.creatorId,
            is_archived: false,
          },
        }),
      ChannelFolderNameChanged: (e: Recorded<ChannelFolderNameChanged>, c) => this.folderUpdate(e.data.realmId, e.data.folderId, { name: e.data.newName }, c),
      ChannelFolderDescriptionChanged: (e: Recorded<ChannelFolderDescriptionChanged>, c) =>
        this.folderUpdate(e.data.realmId, e.data.folderId, { description: e.data.newDescription, rendered_description: e.data.renderedDescription }, c),
      ChannelFolderArchived: (e: Recorded<ChannelFolderArchived>, c) => this.folderUpdate(e.data.realmId, e.data.folderId, { is_archived: true }, c),
      ChannelFolderUnarchived: (e: Recorded<ChannelFolderUnarchived>, c) => this.folderUpdate(e.data.realmId, e.data.folderId, { is_archived: false }, c),
      ChannelFoldersReordered: (e: Recorded<ChannelFoldersReordered>, c) => toRealm(c, e.data.realmId, { type: 'channel_folder', op: 'reorder', order: e.data.order }),
    };
  }

  private folderUpdate(realmId: number, folderId: number, data: Record<string, unknown>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return toRealm(c, realmId, { type: 'channel_folder', op: 'update', channel_folder_id: folderId, data });
  }
}
