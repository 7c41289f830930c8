import {
  CHANNEL_EVENT_TYPES,
  SUBSCRIPTION_EVENT_TYPES,
  channelNameKey,
  defaultChannelGroupSettings,
  type ChannelEvent,
  type SubscriptionEvent,
} from '@app/domain';
import { CHANNELS, type ChannelDocument } from '@app/application';
import { defineProjection, unixSeconds } from '../shared/projection';

/**
 * Channels in the shape of Zulip's stream object, from the organization's `channels-<realmId>`
 * stream, with the subscriber count kept from each channel's `subscriptions-<channelId>` stream.
 */
export const channelsProjection = defineProjection<ChannelDocument, ChannelEvent | SubscriptionEvent>({
  name: 'channels',
  collection: {
    name: CHANNELS,
    // Lookups by id use the document id; names are found per organization; lists filter archived channels;
    // every new user's default channels are found without reading every channel (absent: not default).
    fields: [
      { name: 'realm_id', type: 'number' },
      { name: 'name_key', type: 'string' },
      { name: 'is_archived', type: 'boolean' },
      { name: 'is_default', type: 'boolean' },
    ],
    compoundIndexes: [['realm_id', 'name_key']],
  },
  handles: [...CHANNEL_EVENT_TYPES, ...SUBSCRIPTION_EVENT_TYPES],
  idsOf: (e) => [String(e.data.channelId)],
  evolve: (doc, e) => {
    if (e.type === 'ChannelCreated') {
      const d = e.data;
      return {
        stream_id: d.channelId,
        realm_id: d.realmId,
        name: d.name,
        name_key: channelNameKey(d.name),
        description: d.description,
        rendered_description: d.renderedDescription,
        invite_only: d.inviteOnly,
        is_web_public: d.isWebPublic,
        history_public_to_subscribers: d.historyPublicToSubscribers,
        date_created: unixSeconds(d.at),
        creator_id: d.creatorId,
        is_archived: false,
        // Subscription events of a channel follow its creation in the log; none can precede it.
        subscriber_count: doc?.subscriber_count ?? 0,
        group_settings: defaultChannelGroupSettings(d.creatorId),
        ...(d.topicsPolicy !== undefined ? { topics_policy: d.topicsPolicy } : {}),
        ...(d.messageRetentionDays !== undefined ? { message_retention_days: d.messageRetentionDays } : {}),
      };
    }
    if (!doc) return doc;
    switch (e.type) {
      case 'ChannelNameChanged':
        return { ...doc, name: e.data.newName, name_key: channelNameKey(e.data.newName) };
      case 'ChannelDescriptionChanged':
        return { ...doc, description: e.data.newDescription, rendered_description: e.data.renderedDescription };
      case 'ChannelPermissionChanged':
        return {
          ...doc,
          invite_only: e.data.new.inviteOnly,
          history_public_to_subscribers: e.data.new.historyPublicToSubscribers,
          is_web_public: e.data.new.isWebPublic,
        };
      case 'ChannelDeactivated':
        return { ...doc, is_archived: true };
      case 'ChannelReactivated':
        return { ...doc, is_archived: false };
      case 'ChannelFolderChanged':
        return { ...doc, folder_id: e.data.newFolderId };
      case 'ChannelTopicsPolicyChanged':
        return { ...doc, topics_policy: e.data.newPolicy };
      case 'ChannelMessageRetentionDaysChanged':
        return { ...doc, message_retention_days: e.data.newValue };
      case 'DefaultChannelAdded':
        return { ...doc, is_default: true };
      case 'DefaultChannelRemoved': {
        const { is_default: _wasDefault, ...rest } = doc;
        return rest;
      }
      case 'SubscriptionsCreated':
        return { ...doc, subscriber_count: doc.subscriber_count + e.data.subscriptions.length };
      case 'SubscriptionsReactivated':
        return { ...doc, subscriber_count: doc.subscriber_count + e.data.userIds.length };
      case 'SubscriptionsDeactivated':
        return { ...doc, subscriber_count: Math.max(0, doc.subscriber_count - e.data.userIds.length) };
      default:
        return doc;
    }
  },
});
