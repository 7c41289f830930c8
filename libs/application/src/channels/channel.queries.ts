import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  InvalidChannelIdError,
  InvalidChannelNameLookupError,
  channelNameKey,
  hasContentAccess,
  hasMetadataAccess,
  type DomainError,
} from '@app/domain';
import type { Filter, ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { ChannelSubscribers } from './channel-subscribers';
import { CHANNELS, type ChannelDocument } from './channel.documents';
import { accessFactsOf, compareChannelNames } from './channel-format';

export type AccessOptions = {
  /** Default true: the user must be able to read the channel, not only see that it exists. */
  requireContentAccess?: boolean;
  /** Default true: an archived channel is not found. */
  requireActiveChannel?: boolean;
};

export type AccessedChannel = { channel: ChannelDocument; isSubscribed: boolean };

/** `GET /streams` parameters (zerver/lib/streams.py get_streams_for_user). */
export type StreamsQuery = {
  includePublic?: boolean;
  includeWebPublic?: boolean;
  includeSubscribed?: boolean;
  excludeArchived?: boolean;
  includeAll?: boolean;
  includeOwnerSubscribed?: boolean;
  includeCanAccessContent?: boolean;
  /** For bots: their owner's id, whose subscriptions `includeOwnerSubscribed` adds. */
  botOwnerId?: number | null;
};

/**
 * Reads of the channels read model, with Zulip's access rules. For the messaging core:
 * `byId` / `byName` (case-insensitive), `accessById` / `accessByName` (Zulip's access_stream_by_*,
 * raising its errors), `canAccess` (may read and post to the channel's history: content access) and
 * `channelsVisibleTo` (every channel the user can read).
 */
@Injectable()
export class ChannelQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly subscriptions: ChannelSubscribers,
  ) {}

  async byId(realmId: number, channelId: number): Promise<ChannelDocument | null> {
    const channel = await this.readStore.get<ChannelDocument>(CHANNELS, String(channelId));
    return channel && channel.realm_id === realmId ? channel : null;
  }

  /** By name, case-insensitively and ignoring surrounding whitespace (Zulip's get_realm_stream). */
  async byName(realmId: number, name: string): Promise<ChannelDocument | null> {
    const [channel] = await this.readStore.find<ChannelDocument>(CHANNELS, { where: { realm_id: realmId, name_key: channelNameKey(name) }, limit: 1 });
    return channel ?? null;
  }

  /** Channels by case-insensitive name, keyed by channelNameKey. */
  async byNames(realmId: number, names: string[]): Promise<Map<string, ChannelDocument>> {
    const keys = [...new Set(names.map(channelNameKey))];
    const result = new Map<string, ChannelDocument>();
    for (let i = 0; i < keys.length; i += 500) {
      const found = await this.readStore.find<ChannelDocument>(CHANNELS, { where: { realm_id: realmId, name_key: { $in: keys.slice(i, i + 500) } } });
      for (const channel of found) result.set(channel.name_key, channel);
    }
    return result;
  }

  async byIds(realmId: number, channelIds: number[]): Promise<ChannelDocument[]> {
    const docs = await this.readStore.getMany<ChannelDocument>(CHANNELS, channelIds.map(String));
    return docs.map((d) => d.doc).filter((c) => c.realm_id === realmId);
  }

  /** Every channel of the organization, ordered by name. */
  async list(realmId: number, options: { includeArchived?: boolean } = {}): Promise<ChannelDocument[]> {
    const where: Filter = { realm_id: realmId };
    if (!options.includeArchived) where.is_archived = false;
    return (await this.readStore.find<ChannelDocument>(CHANNELS, { where })).sort(compareChannelNames);
  }

  /**
   * The default channels of the organization (get_slim_realm_default_streams), by id. Never
   * archived nor private: the channels decider keeps them so.
   */
  async defaultChannels(realmId: number): Promise<ChannelDocument[]> {
    // Every user creation asks, and an organization may have thousands of channels: found by the
    // is_default index alone (a filter on realm_id too lets SQLite pick the realm's index and read
    // every channel of the organization), then narrowed to the organization's active ones.
    const defaults = await this.readStore.find<ChannelDocument>(CHANNELS, { where: { is_default: true } });
    return defaults.filter((c) => c.realm_id === realmId && !c.is_archived).sort((a, b) => a.stream_id - b.stream_id);
  }

  /** get_default_stream_ids_for_realm, in id order: `realm_default_streams` and `default_streams` events. */
  async defaultChannelIds(realmId: number): Promise<number[]> {
    return (await this.defaultChannels(realmId)).map((c) => c.stream_id);
  }

  /** zerver/lib/streams.py access_stream_by_id: "Invalid channel ID" for channels the user may not reach. */
  accessById(actor: Actor, channelId: number, options: AccessOptions = {}): Promise<AccessedChannel> {
    return this.access(actor, () => this.byId(actor.realmId, channelId), new InvalidChannelIdError(), options);
  }

  /** access_stream_by_name: "Invalid channel name '<name>'". */
  accessByName(actor: Actor, name: string, options: AccessOptions = {}): Promise<AccessedChannel> {
    return this.access(actor, () => this.byName(actor.realmId, name), new InvalidChannelNameLookupError(name), options);
  }

  /** Whether the user may read the channel's messages (Zulip's content access). */
  async canAccess(actor: Actor, channel: ChannelDocument): Promise<boolean> {
    if (channel.realm_id !== actor.realmId) return false;
    return hasContentAccess(actor, accessFactsOf(channel), await this.subscriptions.isSubscribed(actor.userId, channel.stream_id));
  }

  /** Every unarchived channel whose messages the user may read, ordered by name. */
  async channelsVisibleTo(actor: Actor): Promise<ChannelDocument[]> {
    return this.streamsFor(actor, { includeCanAccessContent: true });
  }

  /** zerver/lib/streams.py get_streams_for_user, ordered by name (do_get_streams). */
  async streamsFor(actor: Actor, query: StreamsQuery): Promise<ChannelDocument[]> {
    const includePublic = (query.includePublic ?? true) && actor.role !== 'guest';
    const channels = await this.list(actor.realmId, { includeArchived: !(query.excludeArchived ?? true) });
    const subscribed = actor.userId === null ? new Set<number>() : await this.subscriptions.subscribedChannelIds(actor.userId);
    const isSubscribed = (c: ChannelDocument) => subscribed.has(c.stream_id);
    if (query.includeAll) return channels.filter((c) => hasMetadataAccess(actor, accessFactsOf(c), isSubscribed(c)));

    const ownerSubscribed =
      query.includeOwnerSubscribed && actor.isBot && query.botOwnerId != null
        ? await this.subscriptions.subscribedChannelIds(query.botOwnerId)
        : undefined;
    if (query.includeCanAccessContent) {
      return channels.filter(
        (c) => hasContentAccess(actor, accessFactsOf(c), isSubscribed(c)) || (ownerSubscribed?.has(c.stream_id) ?? false),
      );
    }
    return channels.filter(
      (c) =>
        ((query.includeSubscribed ?? true) && isSubscribed(c)) ||
        (includePublic && !c.invite_only) ||
        (query.includeWebPublic === true && c.is_web_public && !c.invite_only && c.history_public_to_subscribers && !c.is_archived) ||
        (ownerSubscribed?.has(c.stream_id) ?? false),
    );
  }

  private async access(
    actor: Actor,
    load: () => Promise<ChannelDocument | null>,
    error: DomainError,
    { requireContentAccess = true, requireActiveChannel = true }: AccessOptions,
  ): Promise<AccessedChannel> {
    const channel = await load();
    if (!channel) throw error;
    const isSubscribed = await this.subscriptions.isSubscribed(actor.userId, channel.stream_id);
    if (requireActiveChannel && channel.is_archived) throw error;
    const facts = accessFactsOf(channel);
    const allowed = requireContentAccess ? hasContentAccess(actor, facts, isSubscribed) : hasMetadataAccess(actor, facts, isSubscribed);
    if (!allowed) throw error;
    return { channel, isSubscribed };
  }
}
