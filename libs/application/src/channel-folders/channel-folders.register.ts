import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { ChannelFolderQueries } from './channel-folder.queries';

/** `channel_folders` (also fetched for `channel_folder`): every folder, archived ones included. */
@Injectable()
export class ChannelFoldersRegisterSections implements AreaRegisterSections {
  constructor(private readonly folders: ChannelFolderQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'channel_folders', aliases: ['channel_folder'], read: async (actor) => ({ channel_folders: await this.folders.list(actor.realmId, { includeArchived: true }) }) }];
  }
}
