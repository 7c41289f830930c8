import { CHANNEL_FOLDER_EVENT_TYPES, type ChannelFolderEvent } from '@app/domain';
import { CHANNEL_FOLDERS, type ChannelFolderDocument } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';

/** Channel folders in the shape of Zulip's ChannelFolderDict, from `channel_folders-<realmId>`. */
export const channelFoldersProjection = defineProjection<ChannelFolderDocument, ChannelFolderEvent>({
  name: 'channel_folders',
  collection: {
    name: CHANNEL_FOLDERS,
    fields: [
      { name: 'realm_id', type: 'number' },
      { name: 'is_archived', type: 'boolean', index: false },
    ],
  },
  handles: CHANNEL_FOLDER_EVENT_TYPES,
  idsOf: (e) => {
    return e.type === 'ChannelFoldersReordered' ? Object.keys(e.data.positions) : [String(e.data.folderId)];
  },
  evolve: (doc, e, id) => {
    if (e.type === 'ChannelFolderCreated') {
      const d = e.data;
      return {
        id: d.folderId, realm_id: d.realmId, name: d.name, description: d.description, rendered_description: d.renderedDescription,
        order: d.order, date_created: unixSeconds(d.at), creator_id: d.creatorId, is_archived: false,
      };
    }
    if (!doc) return doc;
    switch (e.type) {
      case 'ChannelFolderNameChanged':
        return { ...doc, name: e.data.newName };
      case 'ChannelFolderDescriptionChanged':
        return { ...doc, description: e.data.newDescription, rendered_description: e.data.renderedDescription };
      case 'ChannelFolderArchived':
        return { ...doc, is_archived: true };
      case 'ChannelFolderUnarchived':
        return { ...doc, is_archived: false };
      case 'ChannelFoldersReordered':
        return { ...doc, order: e.data.positions[Number(id)] ?? doc.order };
      default:
        return doc;
    }
  },
});
