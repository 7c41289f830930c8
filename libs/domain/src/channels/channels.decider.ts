import type { Decider } from '../shared/decider';
import type { Role } from '../shared/actor';
import type { SystemGroupName } from '../shared/system-groups';
import { isSystemGroupMember } from '../shared/system-groups';
import { InsufficientPermissionError } from '../users/users.errors';
import { checkCanAdministerChannel, hasContentAccess, hasMetadataAccess, type ChannelAccessFacts, type Viewer } from './channels.access';
import { MustBeAdministratorError } from '../shared/domain-error';
import { InvalidChannelFolderIdError } from '../channel-folders/channel-folders.errors';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../shared/empty-topic';
import { MustBeOwnerError } from '../shared/domain-error';
import { CHANNEL_RETENTION_SPECIAL_VALUES, type MessageRetentionDaysInput, parseMessageRetentionDays } from '../shared/message-retention';
import {
  CannotManageDefaultChannelError,
  CannotSetTopicsPolicyError,
  DefaultChannelCannotBePrivateError,
  PrivateChannelCannotBeDefaultError,
  ChannelAlreadyDeactivatedError,
  ChannelAlreadyHasThatNameError,
  ChannelContentAccessRequiredError,
  ChannelNameInUseError,
  ChannelNotDeactivatedError,
  InvalidChannelIdError,
  PrivateChannelWithoutSubscribersError,
  WebPublicChannelsDisabledError,
} from './channels.errors';
import type { ChannelEvent, ChannelPrivacy, ChannelTopicsPolicy } from './channels.events';
import {
  WEB_PUBLIC_CHANNELS_ENABLED,
  canCreatePrivateChannels,
  canCreatePublicChannels,
  channelNameKey,
  isRealmAdministrator,
  checkChannelCreationPermission,
  checkChannelName,
  defaultHistoryPublicToSubscribers,
  normalizeChannelDescription,
  normalizeChannelName,
  proposeChannelPrivacy,
  type PrivacyChange,
} from './channels.rules';

type Meta = { realmId: number; actor: Viewer; now: string };

export type NewChannel = {
  /** Allocated by the handler from the 'channel' id sequence. */
  channelId: number;
  name: string;
  description: string;
  /** The description rendered by the handler (after normalizeChannelDescription). */
  renderedDescription: string;
  inviteOnly: boolean;
  /** null: Zulip's default for the privacy (protected for private channels). */
  historyPublicToSubscribers: boolean | null;
  isWebPublic: boolean;
  /** `topics_policy` of the request; absent or "inherit": the organization's. */
  topicsPolicy?: ChannelTopicsPolicy;
  /** `is_default_stream`: the new channel is a default one (administrators only). */
  isDefault?: boolean;
};

/** UserProfile.can_set_topics_policy: an administrator, or a member of can_set_topics_policy_group. */
export const canSetTopicsPolicy = (role: Role | 'operator', canSetTopicsPolicyGroup: SystemGroupName): boolean =>
  role === 'operator' || isSystemGroupMember('role:administrators', role) || isSystemGroupMember(canSetTopicsPolicyGroup, role);

/**
 * validate_topics_policy: any policy but "inherit" needs can_set_topics_policy (an administrator,
 * or a member of the organization's can_set_topics_policy_group); "Insufficient permission".
 */
export const checkMaySetTopicsPolicy = (policy: ChannelTopicsPolicy | undefined, maySetTopicsPolicy: boolean): void => {
  if (policy !== undefined && policy !== 'inherit' && !maySetTopicsPolicy) throw new InsufficientPermissionError();
};

/**
 * Channels named in `POST /users/me/subscriptions` that do not exist yet (list_to_streams with
 * autocreate). Names that already exist, case-insensitively, are left alone: the caller subscribes
 * to the existing channel, as Zulip's get_or_create does.
 */
export type CreateChannels = {
  type: 'CreateChannels';
  /**
   * maySetTopicsPolicy: the actor is an administrator or in can_set_topics_policy_group (absent: no).
   * messageRetentionDays: the request's `message_retention_days` for every channel it creates
   * (absent: "realm_default"); any other value than "realm_default" is for owners only.
   */
  data: Meta & { channels: NewChannel[]; maySetTopicsPolicy?: boolean; messageRetentionDays?: MessageRetentionDaysInput };
};

/** `PATCH /streams/{stream_id}` (update_stream_backend). Facts from subscriptions come with the command. */
export type UpdateChannel = {
  type: 'UpdateChannel';
  data: Meta & {
    channelId: number;
    /** Whether the actor is subscribed to the channel. */
    isSubscribed: boolean;
    /** Whether the channel has any subscription (deactivated users count), for unarchiving. */
    hasSubscribers: boolean;
    newName?: string;
    description?: { text: string; rendered: string };
    privacy?: PrivacyChange;
    /** `is_archived: false`. */
    unarchive?: boolean;
    topicsPolicy?: ChannelTopicsPolicy;
    /** The actor is an administrator or in the organization's can_set_topics_policy_group. */
    maySetTopicsPolicy?: boolean;
    /** Some message of the channel is in a named topic (channel_has_named_topics); read for `empty_topic_only` only. */
    hasNamedTopics?: boolean;
    /** `is_default_stream`: make the channel a default channel for new users, or stop. */
    isDefault?: boolean;
    /** `message_retention_days`: days, "unlimited" or "realm_default" (owners only). */
    messageRetentionDays?: MessageRetentionDaysInput;
  };
};

/** `DELETE /streams/{stream_id}` (deactivate_stream_backend). */
export type DeactivateChannel = { type: 'DeactivateChannel'; data: Meta & { channelId: number; isSubscribed: boolean } };

/**
 * `PATCH /streams/{stream_id}` with `folder_id` (do_change_stream_folder): null takes the channel out
 * of its folder. Whether the folder exists in the organization comes from the folders read model.
 */
export type ChangeChannelFolder = {
  type: 'ChangeChannelFolder';
  data: Meta & { channelId: number; isSubscribed: boolean; folderId: number | null; folderExists: boolean };
};

/**
 * `POST /default_streams` (add_default_stream) and `DELETE /default_streams`
 * (remove_default_stream): administrators only; a channel is default at most once.
 */
export type AddDefaultChannel = { type: 'AddDefaultChannel'; data: Meta & { channelId: number; isSubscribed: boolean } };
export type RemoveDefaultChannel = { type: 'RemoveDefaultChannel'; data: Meta & { channelId: number; isSubscribed: boolean } };

export type ChannelsCommand = CreateChannels | UpdateChannel | DeactivateChannel | ChangeChannelFolder | AddDefaultChannel | RemoveDefaultChannel;

export type ChannelState = ChannelAccessFacts & {
  channelId: number;
  name: string;
  description: string;
  folderId?: number | null;
  /** Absent: "inherit". */
  topicsPolicy?: ChannelTopicsPolicy;
  /** A default channel for new users (absent: no). */
  isDefault?: boolean;
  /** Its own message_retention_days (-1: forever); absent or null: the organization's. */
  messageRetentionDays?: number | null;
};
export type ChannelsState = { channels: Record<number, ChannelState>; idByNameKey: Record<string, number> };

const privacyOf = (c: ChannelPrivacy): ChannelPrivacy => ({
  inviteOnly: c.inviteOnly,
  historyPublicToSubscribers: c.historyPublicToSubscribers,
  isWebPublic: c.isWebPublic,
});
const samePrivacy = (a: ChannelPrivacy, b: ChannelPrivacy) =>
  a.inviteOnly === b.inviteOnly && a.historyPublicToSubscribers === b.historyPublicToSubscribers && a.isWebPublic === b.isWebPublic;

const mustExist = (state: ChannelsState, channelId: number): ChannelState => {
  const channel = state.channels[channelId];
  if (!channel) throw new InvalidChannelIdError();
  return channel;
};

/**
 * access_stream_by_id (require_active_channel): a channel that does not exist, is archived, or the
 * actor may not reach answers "Invalid channel ID".
 */
const mustAccessActive = (state: ChannelsState, channelId: number, canSee: (channel: ChannelState) => boolean): ChannelState => {
  const channel = state.channels[channelId];
  if (!channel || channel.isArchived || !canSee(channel)) throw new InvalidChannelIdError();
  return channel;
};

/** The default channels' ids, in order, with one more or one less. */
const defaultIdsWith = (state: ChannelsState, change: { add?: number[]; remove?: number }): number[] =>
  [...new Set([...Object.values(state.channels).filter((c) => c.isDefault === true).map((c) => c.channelId), ...(change.add ?? [])])]
    .filter((id) => id !== change.remove)
    .sort((a, b) => a - b);

/** The id of the channel with this name (case-insensitively), if any. */
export const channelIdByName = (state: ChannelsState, name: string): number | undefined => state.idByNameKey[channelNameKey(name)];

/** Metadata of every channel of one organization (stream `channels-<realmId>`). */
export const channelsDecider: Decider<ChannelsCommand, ChannelEvent, ChannelsState> = {
  snapshot: { name: 'channels', version: 1 },
  initialState: () => ({ channels: {}, idByNameKey: {} }),

  decide: (command, state) => {
    const { realmId, actor, now: at } = command.data;
    const actorId = actor.userId;
    switch (command.type) {
      case 'CreateChannels': {
        // add_subscriptions_backend parses message_retention_days for the request first.
        const retention = command.data.messageRetentionDays;
        const messageRetentionDays = retention === undefined ? null : parseMessageRetentionDays(retention, CHANNEL_RETENTION_SPECIAL_VALUES);
        // list_to_streams checks every name first, then creates the missing ones in order.
        const requested = command.data.channels.map((c) => ({ ...c, name: checkChannelName(normalizeChannelName(c.name)) }));
        const taken = new Set(Object.keys(state.idByNameKey));
        const events: ChannelEvent[] = [];
        const defaults: number[] = [];
        for (const c of requested) {
          const key = channelNameKey(c.name);
          if (taken.has(key)) continue;
          checkChannelCreationPermission(actor.role, c.inviteOnly, c.isWebPublic, c.isDefault);
          checkMaySetTopicsPolicy(c.topicsPolicy, command.data.maySetTopicsPolicy ?? false);
          taken.add(key);
          events.push({
            type: 'ChannelCreated',
            data: {
              realmId, channelId: c.channelId, name: c.name, description: normalizeChannelDescription(c.description),
              renderedDescription: c.renderedDescription, inviteOnly: c.inviteOnly,
              historyPublicToSubscribers: defaultHistoryPublicToSubscribers(c.inviteOnly, c.historyPublicToSubscribers),
              isWebPublic: c.isWebPublic, creatorId: actorId, actorId, at,
              ...(c.topicsPolicy !== undefined && c.topicsPolicy !== 'inherit' ? { topicsPolicy: c.topicsPolicy } : {}),
              ...(messageRetentionDays !== null ? { messageRetentionDays } : {}),
            },
          });
          if (c.isDefault) defaults.push(c.channelId);
        }
        // list_to_streams: a retention other than the organization's, for a channel it creates, is for owners only.
        if (messageRetentionDays !== null && events.length > 0 && actor.role !== 'owner' && actor.role !== 'operator') throw new MustBeOwnerError();
        // add_subscriptions_backend makes the created channels default after creating them all.
        defaults.forEach((channelId, i) =>
          events.push({ type: 'DefaultChannelAdded', data: { realmId, channelId, defaultChannelIds: defaultIdsWith(state, { add: defaults.slice(0, i + 1) }), actorId, at } }),
        );
        return events;
      }
      case 'UpdateChannel': {
        // The order of checks and changes follows zerver/views/streams.py update_stream_backend.
        const d = command.data;
        const channel = mustExist(state, d.channelId);
        checkCanAdministerChannel(actor, channel, d.isSubscribed);
        const change = d.privacy ?? {};
        const privacy = proposeChannelPrivacy(privacyOf(channel), change);
        // A default channel must stay public; is_default_stream=false in the same request lets it go.
        const isDefault = d.isDefault ?? channel.isDefault === true;
        if (privacy.inviteOnly && isDefault) throw new DefaultChannelCannotBePrivateError();
        if (change.isPrivate !== undefined && !hasContentAccess(actor, channel, d.isSubscribed)) throw new ChannelContentAccessRequiredError();
        if (change.isPrivate === true && !canCreatePrivateChannels(actor.role)) throw new InsufficientPermissionError();
        if (change.isPrivate === false && !canCreatePublicChannels(actor.role)) throw new InsufficientPermissionError();
        if (change.isWebPublic === true && !WEB_PUBLIC_CHANNELS_ENABLED) throw new WebPublicChannelsDisabledError();

        const events: ChannelEvent[] = [];
        const base = { realmId, channelId: d.channelId, actorId, at };
        if (!samePrivacy(privacy, privacyOf(channel))) {
          events.push({ type: 'ChannelPermissionChanged', data: { ...base, old: privacyOf(channel), new: privacy } });
        }
        if (d.isDefault !== undefined) {
          if (!isRealmAdministrator(actor.role)) throw new CannotManageDefaultChannelError();
          // This server keeps archived channels out of the defaults (Zulip would add one here).
          if (d.isDefault && channel.isArchived && !d.unarchive) throw new InvalidChannelIdError();
          if (d.isDefault && !channel.isDefault) events.push({ type: 'DefaultChannelAdded', data: { ...base, defaultChannelIds: defaultIdsWith(state, { add: [channel.channelId] }) } });
          if (!d.isDefault && channel.isDefault) events.push({ type: 'DefaultChannelRemoved', data: { ...base, defaultChannelIds: defaultIdsWith(state, { remove: channel.channelId }) } });
        }
        if (d.messageRetentionDays !== undefined) {
          // update_stream_backend: owners only, whatever the value, then parse_message_retention_days.
          if (actor.role !== 'owner' && actor.role !== 'operator') throw new MustBeOwnerError();
          const newValue = parseMessageRetentionDays(d.messageRetentionDays, CHANNEL_RETENTION_SPECIAL_VALUES);
          const oldValue = channel.messageRetentionDays ?? null;
          // Zulip records and sends even an unchanged value; nothing changes, so nothing is recorded here.
          if (newValue !== oldValue) events.push({ type: 'ChannelMessageRetentionDaysChanged', data: { ...base, oldValue, newValue } });
        }
        if (d.unarchive) {
          if (!channel.isArchived) throw new ChannelNotDeactivatedError();
          if (privacy.inviteOnly && !d.hasSubscribers) throw new PrivateChannelWithoutSubscribersError();
          events.push({ type: 'ChannelReactivated', data: base });
        }
        if (d.topicsPolicy !== undefined) {
          checkMaySetTopicsPolicy(d.topicsPolicy, d.maySetTopicsPolicy ?? false);
          if (d.topicsPolicy === 'empty_topic_only' && d.hasNamedTopics === true) throw new CannotSetTopicsPolicyError(EMPTY_TOPIC_FALLBACK_NAME);
          const oldPolicy = channel.topicsPolicy ?? 'inherit';
          if (oldPolicy !== d.topicsPolicy) events.push({ type: 'ChannelTopicsPolicyChanged', data: { ...base, oldPolicy, newPolicy: d.topicsPolicy } });
        }
        if (d.description !== undefined) {
          const description = normalizeChannelDescription(d.description.text);
          if (description !== channel.description) {
            events.push({
              type: 'ChannelDescriptionChanged',
              data: { ...base, oldDescription: channel.description, newDescription: description, renderedDescription: d.description.rendered },
            });
          }
        }
        if (d.newName !== undefined) {
          const newName = normalizeChannelName(d.newName);
          if (newName === channel.name) throw new ChannelAlreadyHasThatNameError();
          // Only a change of letter case keeps the name's identity; anything else must be a free, valid name.
          if (channelNameKey(newName) !== channelNameKey(channel.name)) {
            checkChannelName(newName);
            if (channelIdByName(state, newName) !== undefined) throw new ChannelNameInUseError();
          }
          events.push({ type: 'ChannelNameChanged', data: { ...base, oldName: channel.name, newName } });
        }
        return events;
      }
      case 'DeactivateChannel': {
        const channel = mustExist(state, command.data.channelId);
        checkCanAdministerChannel(actor, channel, command.data.isSubscribed);
        if (channel.isArchived) throw new ChannelAlreadyDeactivatedError();
        const base = { realmId, channelId: channel.channelId, actorId, at };
        // do_deactivate_stream removes a default channel from the defaults first.
        const removed = { ...base, defaultChannelIds: defaultIdsWith(state, { remove: channel.channelId }) };
        return [...(channel.isDefault ? [{ type: 'DefaultChannelRemoved' as const, data: removed }] : []), { type: 'ChannelDeactivated', data: base }];
      }
      case 'AddDefaultChannel': {
        if (!isRealmAdministrator(actor.role)) throw new MustBeAdministratorError();
        const channel = mustAccessActive(state, command.data.channelId, (c) => hasContentAccess(actor, c, command.data.isSubscribed));
        if (channel.inviteOnly) throw new PrivateChannelCannotBeDefaultError();
        if (channel.isDefault) return [];
        return [{ type: 'DefaultChannelAdded', data: { realmId, channelId: channel.channelId, defaultChannelIds: defaultIdsWith(state, { add: [channel.channelId] }), actorId, at } }];
      }
      case 'RemoveDefaultChannel': {
        if (!isRealmAdministrator(actor.role)) throw new MustBeAdministratorError();
        const channel = mustAccessActive(state, command.data.channelId, (c) => hasMetadataAccess(actor, c, command.data.isSubscribed));
        // Zulip notifies even when the channel was not a default one; nothing changes, so nothing is recorded.
        if (!channel.isDefault) return [];
        return [{ type: 'DefaultChannelRemoved', data: { realmId, channelId: channel.channelId, defaultChannelIds: defaultIdsWith(state, { remove: channel.channelId }), actorId, at } }];
      }
      case 'ChangeChannelFolder': {
        const d = command.data;
        const channel = mustExist(state, d.channelId);
        checkCanAdministerChannel(actor, channel, d.isSubscribed);
        if (d.folderId !== null && !d.folderExists) throw new InvalidChannelFolderIdError();
        const oldFolderId = channel.folderId ?? null;
        if (oldFolderId === d.folderId) return [];
        return [{ type: 'ChannelFolderChanged', data: { realmId, channelId: channel.channelId, oldFolderId, newFolderId: d.folderId, actorId, at } }];
      }
    }
  },

  evolve: (state, event) => {
    const update = (channelId: number, patch: Partial<ChannelState>): ChannelsState => {
      const channel = state.channels[channelId];
      return channel ? { ...state, channels: { ...state.channels, [channelId]: { ...channel, ...patch } } } : state;
    };
    switch (event.type) {
      case 'ChannelCreated': {
        const d = event.data;
        return {
          channels: {
            ...state.channels,
            [d.channelId]: {
              channelId: d.channelId, name: d.name, description: d.description, creatorId: d.creatorId, isArchived: false,
              inviteOnly: d.inviteOnly, historyPublicToSubscribers: d.historyPublicToSubscribers, isWebPublic: d.isWebPublic,
              ...(d.topicsPolicy !== undefined ? { topicsPolicy: d.topicsPolicy } : {}),
              ...(d.messageRetentionDays !== undefined ? { messageRetentionDays: d.messageRetentionDays } : {}),
            },
          },
          idByNameKey: { ...state.idByNameKey, [channelNameKey(d.name)]: d.channelId },
        };
      }
      case 'ChannelNameChanged': {
        const { channelId, oldName, newName } = event.data;
        const next = update(channelId, { name: newName });
        const idByNameKey = { ...next.idByNameKey };
        delete idByNameKey[channelNameKey(oldName)];
        idByNameKey[channelNameKey(newName)] = channelId;
        return { ...next, idByNameKey };
      }
      case 'ChannelDescriptionChanged':
        return update(event.data.channelId, { description: event.data.newDescription });
      case 'ChannelPermissionChanged':
        return update(event.data.channelId, privacyOf(event.data.new));
      case 'ChannelDeactivated':
        return update(event.data.channelId, { isArchived: true });
      case 'ChannelReactivated':
        return update(event.data.channelId, { isArchived: false });
      case 'ChannelFolderChanged':
        return update(event.data.channelId, { folderId: event.data.newFolderId });
      case 'ChannelTopicsPolicyChanged':
        return update(event.data.channelId, { topicsPolicy: event.data.newPolicy });
      case 'ChannelMessageRetentionDaysChanged':
        return update(event.data.channelId, { messageRetentionDays: event.data.newValue });
      case 'DefaultChannelAdded':
        return update(event.data.channelId, { isDefault: true });
      case 'DefaultChannelRemoved':
        return update(event.data.channelId, { isDefault: false });
      default:
        return state;
    }
  },
};
