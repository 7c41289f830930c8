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
  parsePresenceStatus,
  type Actor,
} from '@app/domain';
import { CurrentUser, HumansOnly } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { UpdatePresenceDto } from './presence.dto';

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
    const response = await this.presence.forRealm(actor.realmId, {
      slim: params.slim_presence ?? false,
      lastUpdateId: params.last_update_id,
      historyLimitDays: params.history_limit_days,
    });
    const { presence_last_update_id, ...rest } = response;
    // presence_last_update_id comes with the modern protocol only (feature level 263).
    return params.last_update_id === undefined ? rest : response;
  }

  @Get('realm/presence')
  @Summary('Everyone\'s presence, keyed by email (the legacy shape).')
  async realm(@CurrentUser() { actor }: AuthenticatedUser) {
    const { presences, server_timestamp } = await this.presence.forRealm(actor.realmId, { slim: false });
    return { presences, server_timestamp };
  }

  @Get('users/:user_id_or_email/presence')
  @Summary('One user\'s presence: their latest status and time, offline past the threshold.')
  async ofUser(@CurrentUser() { actor }: AuthenticatedUser, @Param('user_id_or_email') userIdOrEmail: string) {
    const user = await this.target(actor, userIdOrEmail);
    if (user.is_bot) throw new BotPresenceNotSupportedError();
    const row = await this.presence.ofUser(user);
    if (!row) throw new NoPresenceDataError(userIdOrEmail);
    const now = this.clock.now().getTime() / 1000;
    const { aggregated, website } = legacyPresence(row, Date.parse(user.date_joined) / 1000, now);
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
      : await this.users.byEmail(actor.realmId, userIdOrEmail);
    if (!user || !user.is_active) throw new NoSuchUserError();
    return user;
  }
}
