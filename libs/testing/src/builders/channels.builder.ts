import type {
  ChannelCreated,
  ChannelDeactivated,
  ChannelDescriptionChanged,
  ChannelNameChanged,
  ChannelPermissionChanged,
  ChannelPrivacy,
  ChannelReactivated,
  DefaultChannelAdded,
  DefaultChannelRemoved,
} from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

/** A public channel "general" (id 1) created by user 10 in realm 1, unless overridden. */
export const channelCreated = (overrides: Partial<ChannelCreated['data']> = {}): ChannelCreated => ({
  type: 'ChannelCreated',
  data: {
    realmId: 1, channelId: 1, name: 'general', description: '', renderedDescription: '', inviteOnly: false,
    historyPublicToSubscribers: true, isWebPublic: false, creatorId: 10, actorId: 10, at: AT,
    ...overrides,
  },
});

/** A private channel with protected history. */
export const privateChannelCreated = (overrides: Partial<ChannelCreated['data']> = {}): ChannelCreated =>
  channelCreated({ name: 'secret', inviteOnly: true, historyPublicToSubscribers: false, ...overrides });

export const channelNameChanged = (channelId: number, oldName: string, newName: string, actorId: number | null = 10): ChannelNameChanged => ({
  type: 'ChannelNameChanged', data: { realmId: 1, channelId, oldName, newName, actorId, at: AT },
});

export const channelDescriptionChanged = (channelId: number, oldDescription: string, newDescription: string, renderedDescription = ''): ChannelDescriptionChanged => ({
  type: 'ChannelDescriptionChanged', data: { realmId: 1, channelId, oldDescription, newDescription, renderedDescription, actorId: 10, at: AT },
});

export const channelPermissionChanged = (channelId: number, oldPrivacy: ChannelPrivacy, newPrivacy: ChannelPrivacy): ChannelPermissionChanged => ({
  type: 'ChannelPermissionChanged', data: { realmId: 1, channelId, old: oldPrivacy, new: newPrivacy, actorId: 10, at: AT },
});

export const channelDeactivated = (channelId = 1, actorId: number | null = 10): ChannelDeactivated => ({
  type: 'ChannelDeactivated', data: { realmId: 1, channelId, actorId, at: AT },
});

export const defaultChannelAdded = (channelId = 1, defaultChannelIds = [channelId], actorId: number | null = 2): DefaultChannelAdded => ({
  type: 'DefaultChannelAdded', data: { realmId: 1, channelId, defaultChannelIds, actorId, at: AT },
});

export const defaultChannelRemoved = (channelId = 1, defaultChannelIds: number[] = [], actorId: number | null = 2): DefaultChannelRemoved => ({
  type: 'DefaultChannelRemoved', data: { realmId: 1, channelId, defaultChannelIds, actorId, at: AT },
});

export const channelReactivated = (channelId = 1, actorId: number | null = 10): ChannelReactivated => ({
  type: 'ChannelReactivated', data: { realmId: 1, channelId, actorId, at: AT },
});
