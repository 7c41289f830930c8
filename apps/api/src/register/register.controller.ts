import { Controller, Get, Inject, Post } from '@nestjs/common';
import { API_LIMITS, APP_CONFIG, buildNarrowPredicate, PRESENCE_INTERVALS, RegisterState, versionFields } from '@app/application';
import { DomainError } from '@app/domain';
import type { AppConfig } from '@app/config';
import { Params } from '../http/params/params.decorator';
import { RegisterDto } from './register.dto';
import { CurrentUser } from '../http/auth.decorators';
import type { AuthenticatedUser } from '../http/request-context';
import type { Actor } from '@app/domain';
import { RegisterCoordinator } from '../events/register-coordinator';

/**
 * POST /register (and GET, as the spec names it): creates an event queue for the caller and
 * answers the initial state (RegisterState) consistent with it (RegisterCoordinator), the
 * server's version and the R5 constants.
 */
@Controller('api/v1/register')
export class RegisterController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly initialState: RegisterState,
    private readonly coordinator: RegisterCoordinator,
  ) {}

  @Post()
  register(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: RegisterDto) {
    return this.state(actor, params);
  }

  @Get()
  registerViaGet(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: RegisterDto) {
    return this.state(actor, params);
  }

  private async state(actor: Actor, params: RegisterDto) {
    // narrow_dataclasses_from_tuples: a term is [operator, operand] (more items are ignored; fewer
    // would fail in Zulip with a server error, refused here as a bad request).
    if (params.narrow?.some((term) => term.length < 2)) throw new DomainError('Invalid narrow');
    const narrow = params.narrow && params.narrow.length > 0 ? buildNarrowPredicate(params.narrow.map(([operator, operand]) => [operator, operand])) : undefined;
    const { queue, state } = await this.coordinator.register(
      {
        userId: actor.userId!,
        realmId: actor.realmId,
        eventTypes: params.event_types ?? null,
        idleQueueTimeout: params.idle_queue_timeout,
        queueLifespanSecs: params.queue_lifespan_secs,
        narrow,
        capabilities: {
          streamTypingNotifications: params.client_capabilities?.stream_typing_notifications === true,
          emptyTopicName: params.client_capabilities?.empty_topic_name === true,
          linkifierUrlTemplate: params.client_capabilities?.linkifier_url_template === true,
          simplifiedPresenceEvents: params.client_capabilities?.simplified_presence_events === true,
          individualEmojiChanges: params.client_capabilities?.individual_emoji_changes === true,
          slimPresence: params.slim_presence === true,
          includeDeactivatedGroups: params.client_capabilities?.include_deactivated_groups === true,
        },
      },
      () => this.initialState.fetch(actor, params.fetch_event_types ?? params.event_types, {
        includeSubscribers: params.include_subscribers ?? false,
        clientCapabilities: Object.fromEntries(Object.entries(params.client_capabilities ?? {}).map(([k, v]) => [k, v === true])),
        slimPresence: params.slim_presence ?? false,
        presenceLastUpdateId: params.presence_last_update_id,
        presenceHistoryLimitDays: params.presence_history_limit_days,
      }),
    );
    return {
      ...state,
      queue_id: queue.id,
      // Feature level 481: how long the queue survives without a poll.
      idle_queue_timeout_secs: queue.lifespanMs / 1000,
      // Every event the queue holds (ids from 0) comes after the state: the client asks from -1.
      last_event_id: -1,
      ...versionFields({ zulipAliases: this.config.zulipAliases }),
      ...API_LIMITS,
      ...PRESENCE_INTERVALS,
      max_file_upload_size_mib: this.config.maxFileUploadSizeMib,
    };
  }
}
