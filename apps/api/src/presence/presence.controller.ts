import { Controller, Get, Inject, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLIENT_EVENT_BUS, type ClientEventBusPort, PresenceQueries, UpdatePresenceCommand, UserQueries, CLOCK, type ClockPort } from '@app/application';
import {
  BotPresenceNotSupportedError,
  InvalidPresenceStatusError,
  NoPresenceDataError,
  NoSuchUserError,
  PRESENCE_OFFLINE_THRESHOLD_SECONDS,
  legacyPresence,
  modernPresence,
  parsePresenceStatus,
  type Actor,
} from '@app/domain';
import { CurrentUser, HumansOnly } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { UpdatePresenceDto, UserPresenceDto } from './presence.dto';

/** ≈ zerver/views/presence.py: update_active_status_backend, get_presence_backend, get_statuses_for_realm. */
@Controller('api/v1')
export class PresenceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly presence: PresenceQueries,
    private readonly users: UserQueries,
    @Inject(CLIENT_EVENT_BUS) private readonly bus: ClientEventBusPort,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  @Post('users/me/presence')
  @HumansOnly()
  @Summary('Report your presence (about once a minute) and get everyone\'s.')
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: UpdatePresenceDto) {
    const status = parsePresenceStatus(params.status);
    if (status === null) throw new InvalidPresenceStatusError(params.status);
    const { announcement } = await this.commands.execute(new UpdatePresenceCommand({ actor }, status));
    if (announcement) await this.bus.publish(announcement);
    if (params.ping_only) return {};
    // get_presence_response: presences, server_timestamp and presence_last_update_id, in either shape.
    return this.presence.forRealm(actor.realmId, {
      slim: params.slim_presence ?? false,
      lastUpdateId: params.last_update_id,
      historyLimitDays: params.history_limit_days,
    });
  }

  @Get('realm/presence')
  @Summary('Everyone\'s presence, keyed by email (the legacy shape).')
  async realm(@CurrentUser() { actor }: AuthenticatedUser) {
    const { presences, server_timestamp } = await this.presence.forRealm(actor.realmId, { slim: false });
    return { presences, server_timestamp };
  }

  @Get('users/:user_id_or_email/presence')
  @Summary('One user\'s presence: legacy (offline past the threshold) or, with slim_presence, the modern shape.')
  async ofUser(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_id_or_email') userIdOrEmail: string, @Params() params: UserPresenceDto) {
    const user = await this.target(actor, userIdOrEmail);
    if (user.is_bot) throw new BotPresenceNotSupportedError();
    const times = await this.presence.ofUser(user);
    if (!times) throw new NoPresenceDataError(userIdOrEmail);
    const joined = Date.parse(user.date_joined) / 1000;
    if (params.slim_presence) return { presence: modernPresence(times, joined) };
    const now = this.clock.now().getTime() / 1000;
    const { aggregated, website } = legacyPresence(times, joined);
    return {
      presence: {
        aggregated: { status: now - aggregated.timestamp > PRESENCE_OFFLINE_THRESHOLD_SECONDS ? 'offline' : aggregated.status, timestamp: aggregated.timestamp },
        website: { status: website.status, timestamp: website.timestamp },
      },
    };
  }

  /** access_user_by_id / access_user_by_email (active users only); any failure is "No such user". */
  private async target(actor: Actor, userIdOrEmail: string) {
    const user = /^-?\d+$/.test(userIdOrEmail)
      ? await this.users.byId(actor.realmId, Number(userIdOrEmail))
      : await this.users.byEmailAs(actor, userIdOrEmail);
    if (!user || !user.is_active) throw new NoSuchUserError();
    return user;
  }
}
