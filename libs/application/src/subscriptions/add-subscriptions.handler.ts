import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  type Actor,
  type ChannelsState,
  type ChannelTopicsPolicy,
  DEFAULT_STREAM_COLOR,
  InsufficientPermissionError,
  type NewChannel,
  type SubscriptionChannel,
  UnableToAccessChannelError,
  canAddSubscribersTo,
  checkMaySetTopicsPolicy,
  channelIdByName,
  channelNameKey,
  channelsDecider,
  channelsStream,
  checkChannelCreationPermission,
  checkChannelName,
  checkMayAddSubscriptions,
  CHANNEL_RETENTION_SPECIAL_VALUES,
  hasContentAccess,
  MustBeOwnerError,
  parseMessageRetentionDays,
  normalizeChannelDescription,
  normalizeChannelName,
  pickColors,
  subscriptionsDecider,
  subscriptionsStream,
} from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { GlobalPosition } from '../ports/event-store.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { ChannelDescriptionRenderer } from '../channels/channel-description.renderer';
import { accessFactsOf } from '../channels/channel-format';
import { ChannelQueries } from '../channels/channel.queries';
import type { ChannelDocument } from '../channels/channel.documents';
import { RealmQueries } from '../realms/realm.queries';
import { UserQueries } from '../users/user.queries';
import { AddSubscriptionsCommand, type AddSubscriptionsResult, type SubscriptionRequest } from './add-subscriptions.command';
import { resolvePrincipals } from './principals';
import { SubscriptionQueries } from './subscription.queries';

type Entry = SubscriptionRequest & { rawName: string };

const channelFacts = (c: ChannelDocument): SubscriptionChannel => ({ channelId: c.stream_id, name: c.name, ...accessFactsOf(c) });
/** The first item of each key, in order. */
const uniqueBy = <T>(items: T[], key: (item: T) => string | number): T[] => {
  const seen = new Set<string | number>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

/**
 * Every check of add_subscriptions_backend runs before anything is written, in Zulip's order
 * (names, permission to create, access to existing channels, principals), so a refused request
 * stores nothing. Then one append creates the missing channels on `channels-<realmId>`, and one
 * append per channel subscribes everyone to it on `subscriptions-<channelId>`; each of those
 * deciders checks its own rules again against the stream it appends to.
 */
@CommandHandler(AddSubscriptionsCommand)
export class AddSubscriptionsHandler implements ICommandHandler<AddSubscriptionsCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly users: UserQueries,
    private readonly renderer: ChannelDescriptionRenderer,
    private readonly realms: RealmQueries,
  ) {}

  async execute({ context: { actor }, request }: AddSubscriptionsCommand): Promise<AddSubscriptionsResult> {
    const now = this.clock.now().toISOString();
    checkMayAddSubscriptions(actor);
    // add_subscriptions_backend parses message_retention_days for each channel named (before its
    // topics_policy check), ahead of list_to_streams.
    const retention = request.messageRetentionDays;
    const retentionDays = retention === undefined || request.subscriptions.length === 0 ? null : parseMessageRetentionDays(retention, CHANNEL_RETENTION_SPECIAL_VALUES);
    // validate_topics_policy: any policy but "inherit" needs can_set_topics_policy, whatever the channels.
    let maySetTopicsPolicy = false;
    if (request.topicsPolicy !== undefined && request.topicsPolicy !== 'inherit') {
      maySetTopicsPolicy = await this.realms.maySetTopicsPolicy(actor);
      checkMaySetTopicsPolicy(request.topicsPolicy, maySetTopicsPolicy);
    }
    const fatal = request.authorizationErrorsFatal ?? true;
    const inviteOnly = request.inviteOnly ?? false;
    const isWebPublic = request.isWebPublic ?? false;
    const isDefault = request.isDefaultStream ?? false;
    const entries: Entry[] = request.subscriptions.map((s) => ({ ...s, rawName: s.name, name: normalizeChannelName(s.name) }));
    const principals = request.principals ?? [];
    // As Zulip compares principals with the caller's id, a list of emails always counts as "others".
    const subscribingOthers = principals.length > 0 && !(principals as unknown[]).every((p) => p === actor.userId);

    // list_to_streams: every name, then permission to create each missing channel.
    for (const name of new Set(entries.map((e) => e.name))) checkChannelName(name);
    const existing = await this.channels.byNames(actor.realmId, entries.map((e) => e.name));
    const missing = uniqueBy(entries.filter((e) => !existing.has(channelNameKey(e.name))), (e) => channelNameKey(e.name));
    for (const entry of missing) {
      checkChannelCreationPermission(actor.role, inviteOnly, isWebPublic, isDefault);
      normalizeChannelDescription(entry.description ?? '');
    }
    // Then a retention of their own for the channels it creates: owners only (no plan limits here: docs/messages.md).
    if (missing.length > 0 && retentionDays !== null && actor.role !== 'owner' && actor.role !== 'operator') throw new MustBeOwnerError();

    // filter_stream_authorization_for_adding_subscribers, on the channels that already exist.
    const existingChannels = uniqueBy(
      entries.flatMap((e) => existing.get(channelNameKey(e.name)) ?? []),
      (c) => c.stream_id,
    ).map(channelFacts);
    const subscribedTo = await this.subscriptions.subscribedAmong(actor.userId, existingChannels.map((c) => c.channelId));
    const unauthorized = existingChannels.filter((c) => !hasContentAccess(actor, c, subscribedTo.has(c.channelId)));
    if (unauthorized.length > 0 && fatal) throw new UnableToAccessChannelError(unauthorized[0].name);
    const accessible = existingChannels.filter((c) => !unauthorized.includes(c));
    if (subscribingOthers && accessible.some((c) => !canAddSubscribersTo(actor, c))) throw new InsufficientPermissionError();

    const targetIds = subscribingOthers
      ? (await resolvePrincipals(this.users, actor, principals)).map((u) => u.user_id)
      : actor.userId !== null
        ? [actor.userId]
        : [];

    const { created, createdIds, position: createdAt } = await this.createChannels(actor, now, missing, {
      inviteOnly,
      isWebPublic,
      historyPublicToSubscribers: request.historyPublicToSubscribers ?? null,
    }, { topicsPolicy: request.topicsPolicy, maySetTopicsPolicy, isDefault, messageRetentionDays: retention });
    // Newly created channels are authorized for their creator.
    const joining = uniqueBy([...accessible, ...created], (c) => c.channelId);
    const colors = await this.pickColors(targetIds, joining, entries);

    const result: AddSubscriptionsResult = { subscribed: {}, already_subscribed: {} };
    let last: GlobalPosition | undefined = createdAt;
    for (const channel of joining) {
      const { newEvents, position } = await this.runner.run(subscriptionsDecider, subscriptionsStream(channel.channelId), {
        type: 'Subscribe',
        data: {
          realmId: actor.realmId, actor, now, channel, subscribingOthers, createdByActor: createdIds.has(channel.channelId),
          users: targetIds.map((userId) => ({ userId, color: colors.get(userId)?.[channel.channelId] ?? DEFAULT_STREAM_COLOR })),
        },
      });
      const joined = new Set(
        newEvents.flatMap((e) => (e.type === 'SubscriptionsCreated' ? e.data.subscriptions.map((s) => s.userId) : e.type === 'SubscriptionsReactivated' ? e.data.userIds : [])),
      );
      for (const userId of targetIds) {
        const bucket = joined.has(userId) ? result.subscribed : result.already_subscribed;
        (bucket[String(userId)] ??= []).push(channel.name);
      }
      if (position !== undefined) last = position;
    }
    await this.projections.waitFor(last);
    if (!fatal) result.unauthorized = unauthorized.map((c) => c.name);
    return result;
  }

  /** One append of every missing channel; returns them (or the channels that won a race for their names) and which were created now. */
  private async createChannels(
    actor: Actor,
    now: string,
    missing: Entry[],
    privacy: { inviteOnly: boolean; isWebPublic: boolean; historyPublicToSubscribers: boolean | null },
    topics: { topicsPolicy?: ChannelTopicsPolicy; maySetTopicsPolicy: boolean; isDefault: boolean; messageRetentionDays?: number | string },
  ): Promise<{ created: SubscriptionChannel[]; createdIds: Set<number>; position: GlobalPosition | undefined }> {
    if (missing.length === 0) return { created: [], createdIds: new Set(), position: undefined };
    const channels: NewChannel[] = [];
    for (const entry of missing) {
      const description = normalizeChannelDescription(entry.description ?? '');
      channels.push({
        channelId: await this.ids.next('channel'),
        name: entry.name,
        description,
        renderedDescription: await this.renderer.render(description, { realmId: actor.realmId, actorId: actor.userId }),
        ...privacy,
        topicsPolicy: topics.topicsPolicy,
        isDefault: topics.isDefault,
      });
    }
    let before: ChannelsState | undefined;
    const { newEvents, position } = await this.runner.run(channelsDecider, channelsStream(actor.realmId), (state) => {
      before = state;
      return {
        type: 'CreateChannels' as const,
        data: { realmId: actor.realmId, actor, now, channels, maySetTopicsPolicy: topics.maySetTopicsPolicy, messageRetentionDays: topics.messageRetentionDays },
      };
    });
    const after = newEvents.reduce(channelsDecider.evolve, before!);
    const created = missing.map((entry) => after.channels[channelIdByName(after, entry.name)!]);
    await this.projections.waitFor(position);
    // A channel someone else created meanwhile is joined like any existing one, with its own checks.
    return { created, createdIds: new Set(newEvents.filter((e) => e.type === 'ChannelCreated').map((e) => e.data.channelId)), position };
  }

  /** pick_colors for each user, over the channels they have never been subscribed to. */
  private async pickColors(userIds: number[], channels: SubscriptionChannel[], entries: Entry[]): Promise<Map<number, Record<number, string>>> {
    const requested: Record<number, string> = {};
    for (const channel of channels) {
      // Zulip keys requested colors by the name as sent, and looks them up by the channel's name.
      const color = entries.find((e) => e.rawName === channel.name && e.color !== undefined)?.color;
      if (color !== undefined) requested[channel.channelId] = color;
    }
    const byUser = new Map<number, { channel_id: number; color: string }[]>();
    for (const s of await this.subscriptions.allSubscriptionsOf(userIds)) {
      const list = byUser.get(s.user_id);
      if (list) list.push(s);
      else byUser.set(s.user_id, [s]);
    }
    const result = new Map<number, Record<number, string>>();
    for (const userId of userIds) {
      const mine = byUser.get(userId) ?? [];
      const had = new Set(mine.map((s) => s.channel_id));
      const fresh = channels.map((c) => c.channelId).filter((id) => !had.has(id));
      result.set(userId, pickColors(mine.map((s) => s.color), requested, fresh));
    }
    return result;
  }
}
