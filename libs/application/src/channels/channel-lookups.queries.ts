import { Injectable } from '@nestjs/common';
import { type Actor, InsufficientPermissionError, NoSuchBotError, NoSuchUserError } from '@app/domain';
import { ChannelSubscribers } from './channel-subscribers';
import { UserQueries } from '../users/user.queries';
import { ChannelQueries } from './channel.queries';

/**
 * Two small reads clients make about a channel: its incoming-email address
 * (get_stream_email_address) and whether a user is subscribed (get_subscription_backend).
 */
@Injectable()
export class ChannelLookups {
  constructor(
    private readonly channels: ChannelQueries,
    private readonly subscriptions: ChannelSubscribers,
    private readonly users: UserQueries,
  ) {}

  /**
   * GET /streams/{stream_id}/email_address: access_stream_by_id, then the sender the address would
   * post as (the caller, or a bot the caller administers: access_bot_by_id). This server runs no
   * incoming email gateway, and Zulip's encode_email_address answers "" when
   * EMAIL_GATEWAY_PATTERN is empty: so does this one, after the same checks.
   */
  async emailAddress(actor: Actor, streamId: number, senderId: number | undefined): Promise<string> {
    await this.channels.accessById(actor, streamId);
    if (senderId !== undefined && senderId !== actor.userId) {
      const bot = await this.users.byId(actor.realmId, senderId);
      if (!bot || !bot.is_bot || !bot.is_active) throw new NoSuchBotError();
      const administers = actor.role === 'owner' || actor.role === 'administrator' || bot.bot_owner_id === actor.userId;
      if (!administers) throw new InsufficientPermissionError();
    }
    return '';
  }

  /**
   * GET /users/{user_id}/subscriptions/{stream_id}: access_user_by_id (active humans: bots and
   * deactivated accounts are "No such user"), then access_stream_by_id with metadata access.
   */
  async isSubscribed(actor: Actor, userId: number, streamId: number): Promise<boolean> {
    const target = await this.users.byId(actor.realmId, userId);
    if (!target || target.is_bot || !target.is_active) throw new NoSuchUserError();
    await this.channels.accessById(actor, streamId, { requireContentAccess: false });
    return this.subscriptions.isSubscribed(userId, streamId);
  }
}
