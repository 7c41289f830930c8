import { Inject, Injectable } from '@nestjs/common';
import { CHANNELS, type ChannelDocument } from '../channels/channel.documents';
import type { Filter, ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { type ApiChannelFolder, CHANNEL_FOLDERS, type ChannelFolderDocument } from './channel-folder.documents';

const toApi = ({ realm_id: _realm, ...folder }: ChannelFolderDocument): ApiChannelFolder => folder;

/** Reads of the channel folders read model (zerver/lib/channel_folders.py). */
@Injectable()
export class ChannelFolderQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  /** get_channel_folders_in_realm: sorted by `order` (then id), archived folders only on request. */
  async list(realmId: number, options: { includeArchived?: boolean } = {}): Promise<ApiChannelFolder[]> {
    const where: Filter = options.includeArchived ? { realm_id: realmId } : { realm_id: realmId, is_archived: false };
    const folders = await this.readStore.find<ChannelFolderDocument>(CHANNEL_FOLDERS, { where });
    return folders.sort((a, b) => a.order - b.order || a.id - b.id).map(toApi);
  }

  async byId(realmId: number, folderId: number): Promise<ChannelFolderDocument | null> {
    const folder = await this.readStore.get<ChannelFolderDocument>(CHANNEL_FOLDERS, String(folderId));
    return folder && folder.realm_id === realmId ? folder : null;
  }

  /** check_channel_folder_in_use: how many channels (archived ones included) are in the folder. */
  async channelsInFolder(realmId: number, folderId: number): Promise<number> {
    const channels = await this.readStore.find<ChannelDocument>(CHANNELS, { where: { realm_id: realmId } });
    return channels.filter((c) => c.folder_id === folderId).length;
  }
}
