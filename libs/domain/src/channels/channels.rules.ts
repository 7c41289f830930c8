import type { Actor, Role } from '../shared/actor';
import { codePointLength, pythonStrip, unprintablePosition } from '../shared/printable-text';
import { InsufficientPermissionError } from '../users/users.errors';
import type { ChannelPrivacy } from './channels.events';
import {
  DefaultChannelCannotBePrivateError,
  ChannelDescriptionTooLongError,
  InvalidChannelNameError,
  InvalidChannelParametersError,
  WebPublicChannelsDisabledError,
} from './channels.errors';

/** Zulip's Stream.MAX_NAME_LENGTH and Stream.MAX_DESCRIPTION_LENGTH. */
export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;

/**
 * Organizations on this server do not offer spectator access (Zulip's realm.enable_spectator_access
 * is off by default), so web-public channels cannot be created (Realm.web_public_streams_enabled).
 */
export const WEB_PUBLIC_CHANNELS_ENABLED = false;

/** Names are stripped as Zulip strips them before any check (add_subscriptions_backend, update_stream_backend). */
export const normalizeChannelName = (name: string): string => pythonStrip(name);

/** Case-insensitive identity of a name, as Zulip's `name__iexact` lookups compare. */
export const channelNameKey = (name: string): string => pythonStrip(name).toLowerCase();

/** zerver/lib/string_validation.py check_stream_name, on an already stripped name. */
export function checkChannelName(name: string): string {
  if (pythonStrip(name) === '') throw InvalidChannelNameError.empty();
  if (codePointLength(name) > MAX_CHANNEL_NAME_LENGTH) throw InvalidChannelNameError.tooLong(MAX_CHANNEL_NAME_LENGTH);
  const position = unprintablePosition(name);
  if (position !== null) throw InvalidChannelNameError.invalidCharacter(position);
  return name;
}

/** Descriptions are one line: Zulip replaces newlines with spaces; at most 1024 characters. */
export function normalizeChannelDescription(description: string): string {
  if (codePointLength(description) > MAX_CHANNEL_DESCRIPTION_LENGTH) throw new ChannelDescriptionTooLongError(MAX_CHANNEL_DESCRIPTION_LENGTH);
  return description.replace(/\n/g, ' ');
}

/**
 * zerver/lib/streams.py get_default_value_for_history_public_to_subscribers: a private channel's
 * history is protected unless asked otherwise; a public channel's history is always public.
 */
export const defaultHistoryPublicToSubscribers = (inviteOnly: boolean, requested: boolean | null): boolean =>
  inviteOnly ? (requested ?? false) : true;

export type PrivacyChange = { isPrivate?: boolean; historyPublicToSubscribers?: boolean; isWebPublic?: boolean };

/**
 * zerver/views/streams.py update_stream_backend: the access settings a change proposes, and the
 * combinations Zulip refuses ("Invalid parameters"): a web-public channel must be public with public
 * history, and a public channel must have public history. Making a channel private without saying
 * anything about history protects it; making it public opens it.
 */
export function proposeChannelPrivacy(current: ChannelPrivacy, change: PrivacyChange): ChannelPrivacy {
  const inviteOnly = change.isPrivate ?? current.inviteOnly;
  const isWebPublic = change.isWebPublic ?? current.isWebPublic;
  const historyPublicToSubscribers =
    change.historyPublicToSubscribers ?? (change.isPrivate !== undefined ? !change.isPrivate : current.historyPublicToSubscribers);
  if (isWebPublic && !historyPublicToSubscribers) throw new InvalidChannelParametersError();
  if (isWebPublic && inviteOnly) throw new InvalidChannelParametersError();
  if (!inviteOnly && !historyPublicToSubscribers) throw new InvalidChannelParametersError();
  return { inviteOnly, historyPublicToSubscribers, isWebPublic };
}

export const isRealmAdministrator = (role: Actor['role']): boolean =>
  role === 'owner' || role === 'administrator' || role === 'operator';

/**
 * The organization-level channel permissions at Zulip's defaults, which this server does not let
 * administrators change yet: can_create_public_channel_group, can_create_private_channel_group and
 * can_add_subscribers_group are "role:members" (everyone but guests).
 */
export const canCreatePublicChannels = (role: Actor['role']): boolean => role !== 'guest';
export const canCreatePrivateChannels = (role: Actor['role']): boolean => role !== 'guest';
export const canSubscribeOthersToAccessibleChannels = (role: Actor['role']): boolean => role !== 'guest';

/** zerver/lib/streams.py check_channel_creation_permissions. */
export function checkChannelCreationPermission(role: Role | 'operator', inviteOnly: boolean, isWebPublic: boolean, isDefault = false): void {
  if (inviteOnly && !canCreatePrivateChannels(role)) throw new InsufficientPermissionError();
  if (!inviteOnly && !canCreatePublicChannels(role)) throw new InsufficientPermissionError();
  if (isDefault && !isRealmAdministrator(role)) throw new InsufficientPermissionError();
  if (isDefault && inviteOnly) throw new DefaultChannelCannotBePrivateError();
  if (isWebPublic && !WEB_PUBLIC_CHANNELS_ENABLED) throw new WebPublicChannelsDisabledError();
}
