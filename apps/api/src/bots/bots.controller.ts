import { Controller, Get, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand, UserQueries } from '@app/application';
import { DomainError, type BotType } from '@app/domain';
import { CurrentUser, HumansOnly } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { CreateBotDto } from './bots.dto';

const BOT_TYPES: Record<number, BotType> = { 1: 'generic', 2: 'incoming_webhook' };

/** ≈ zerver/views/users.py add_bot_backend, get_bots_backend */
@Controller('api/v1/bots')
export class BotsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly users: UserQueries,
  ) {}

  @Post()
  @HumansOnly()
  @Summary('Create a bot owned by the caller; returns its API key.')
  async create(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: CreateBotDto) {
    if (actor.role === 'guest') throw new DomainError('Not allowed for guest users');
    const botType = BOT_TYPES[params.bot_type ?? 1];
    if (!botType) throw new DomainError('Invalid bot type');
    const { userId, apiKey } = await this.commands.execute(
      new CreateBotCommand({ actor }, { fullName: params.full_name, shortName: params.short_name, botType }),
    );
    return {
      user_id: userId,
      api_key: apiKey,
      avatar_url: `/avatar/${userId}`,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    };
  }

  @Get()
  @HumansOnly()
  @Summary('The caller\'s bots, with their API keys.')
  async list(@CurrentUser() { actor, user }: AuthenticatedUser) {
    const bots = await this.users.botsOwnedBy(actor.realmId, user.user_id, { includeDeactivated: false });
    const withKeys = await Promise.all(
      bots.map(async (bot) => ({ bot, apiKey: await this.users.apiKeyById(bot.user_id) })),
    );
    return {
      bots: withKeys.map(({ bot, apiKey }) => ({
        username: bot.email,
        full_name: bot.full_name,
        user_id: bot.user_id,
        api_key: apiKey,
        avatar_url: `/avatar/${bot.user_id}`,
        bot_type: bot.bot_type,
        is_active: bot.is_active,
        owner_id: bot.bot_owner_id,
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
        services: [],
      })),
    };
  }
}
