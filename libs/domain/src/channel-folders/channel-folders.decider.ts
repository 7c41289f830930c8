import { type Actor, isAdministrator } from '../shared/actor';
import type { Decider } from '../shared/decider';
import { MustBeAdministratorError } from '../shared/domain-error';
import { orderMapping } from '../shared/order-mapping';
import { ChannelFolderInUseError, ChannelFolderNameInUseError, InvalidChannelFolderIdError } from './channel-folders.errors';
import type { ChannelFolderEvent } from './channel-folders.events';
import { channelFolderNameKey, checkChannelFolderDescription, checkChannelFolderName } from './channel-folders.rules';

type Meta = { realmId: number; actor: Actor; now: string };

/** `POST /channel_folders/create` (create_channel_folder). Id and rendered description come from the handler. */
export type CreateChannelFolder = {
  type: 'CreateChannelFolder';
  data: Meta & { folderId: number; name: string; description: string; renderedDescription: string };
};

/** `PATCH /channel_folders/{id}` (update_channel_folder): every change of one request in one append. */
export type UpdateChannelFolder = {
  type: 'UpdateChannelFolder';
  data: Meta & {
    folderId: number;
    name?: string;
    description?: { text: string; rendered: string };
    isArchived?: boolean;
    /** Channels (archived ones included) whose folder this is, from the channels read model. */
    channelsInFolder: number;
  };
};

/** `PATCH /channel_folders` (reorder_realm_channel_folders). */
export type ReorderChannelFolders = { type: 'ReorderChannelFolders'; data: Meta & { order: number[] } };

export type ChannelFoldersCommand = CreateChannelFolder | UpdateChannelFolder | ReorderChannelFolders;

export type ChannelFolderState = { folderId: number; name: string; description: string; isArchived: boolean; order: number };
/** Folders by id, in creation order. */
export type ChannelFoldersState = { folders: Record<number, ChannelFolderState> };

const checkAdministrator = (actor: Actor) => {
  if (!isAdministrator(actor)) throw new MustBeAdministratorError();
};

/** Whether a folder other than `exceptId` that is not archived has this name, ignoring case. */
const nameTaken = (state: ChannelFoldersState, name: string, exceptId?: number): boolean =>
  Object.values(state.folders).some(
    (f) => f.folderId !== exceptId && !f.isArchived && channelFolderNameKey(f.name) === channelFolderNameKey(name),
  );

function decideUpdate(d: UpdateChannelFolder['data'], state: ChannelFoldersState): ChannelFolderEvent[] {
  const folder = state.folders[d.folderId];
  if (!folder) throw new InvalidChannelFolderIdError();
  // Every check first, so that a bad request changes nothing (Zulip applies each change as it goes).
  const rename = d.name !== undefined && d.name !== folder.name;
  if (rename) checkChannelFolderName(d.name!);
  const describe = d.description !== undefined && d.description.text !== folder.description;
  if (describe) checkChannelFolderDescription(d.description!.text);
  const archive = d.isArchived === true && !folder.isArchived;
  const unarchive = d.isArchived === false && folder.isArchived;
  if (archive && d.channelsInFolder > 0) throw new ChannelFolderInUseError();
  // A renamed folder, or one coming back from the archive, must not clash with an active folder
  // (check_channel_folder_name); a change of letter case only is no clash with itself.
  if ((rename || unarchive) && nameTaken(state, rename ? d.name! : folder.name, folder.folderId)) {
    throw new ChannelFolderNameInUseError();
  }
  const base = { realmId: d.realmId, folderId: d.folderId, actorId: d.actor.userId, at: d.now };
  const events: ChannelFolderEvent[] = [];
  if (rename) events.push({ type: 'ChannelFolderNameChanged', data: { ...base, oldName: folder.name, newName: d.name! } });
  if (describe) {
    events.push({
      type: 'ChannelFolderDescriptionChanged',
      data: { ...base, oldDescription: folder.description, newDescription: d.description!.text, renderedDescription: d.description!.rendered },
    });
  }
  if (archive) events.push({ type: 'ChannelFolderArchived', data: base });
  if (unarchive) events.push({ type: 'ChannelFolderUnarchived', data: base });
  return events;
}

/** The channel folders of one organization (stream `channel_folders-<realmId>`). */
export const channelFoldersDecider: Decider<ChannelFoldersCommand, ChannelFolderEvent, ChannelFoldersState> = {
  snapshot: { name: 'channel-folders', version: 1 },
  initialState: () => ({ folders: {} }),

  decide: (command, state) => {
    const { realmId, actor, now: at } = command.data;
    checkAdministrator(actor);
    switch (command.type) {
      case 'CreateChannelFolder': {
        const d = command.data;
        checkChannelFolderDescription(d.description);
        checkChannelFolderName(d.name);
        if (nameTaken(state, d.name)) throw new ChannelFolderNameInUseError();
        return [
          {
            type: 'ChannelFolderCreated',
            data: {
              realmId, folderId: d.folderId, name: d.name, description: d.description, renderedDescription: d.renderedDescription,
              order: d.folderId, creatorId: actor.userId, actorId: actor.userId, at,
            },
          },
        ];
      }
      case 'UpdateChannelFolder':
        return decideUpdate(command.data, state);
      case 'ReorderChannelFolders': {
        const ids = Object.values(state.folders).map((f) => f.folderId);
        const positions = orderMapping(ids, command.data.order);
        return [{ type: 'ChannelFoldersReordered', data: { realmId, order: command.data.order, positions, actorId: actor.userId, at } }];
      }
    }
  },

  evolve: (state, event) => {
    const update = (folderId: number, patch: Partial<ChannelFolderState>): ChannelFoldersState => {
      const folder = state.folders[folderId];
      return folder ? { folders: { ...state.folders, [folderId]: { ...folder, ...patch } } } : state;
    };
    switch (event.type) {
      case 'ChannelFolderCreated': {
        const d = event.data;
        return {
          folders: { ...state.folders, [d.folderId]: { folderId: d.folderId, name: d.name, description: d.description, isArchived: false, order: d.order } },
        };
      }
      case 'ChannelFolderNameChanged':
        return update(event.data.folderId, { name: event.data.newName });
      case 'ChannelFolderDescriptionChanged':
        return update(event.data.folderId, { description: event.data.newDescription });
      case 'ChannelFolderArchived':
        return update(event.data.folderId, { isArchived: true });
      case 'ChannelFolderUnarchived':
        return update(event.data.folderId, { isArchived: false });
      case 'ChannelFoldersReordered': {
        const folders = { ...state.folders };
        for (const [id, order] of Object.entries(event.data.positions)) {
          if (folders[Number(id)]) folders[Number(id)] = { ...folders[Number(id)], order };
        }
        return { folders };
      }
      default:
        return state;
    }
  },
};
