import { Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ChangeChannelFolderCommand,
  ChannelQueries,
  ChannelTopics,
  ChannelViews,
  DeactivateChannelCommand,
  SubscriptionQueries,
  UpdateChannelCommand,
  UserQueries,
  accessFactsOf,
} from '@app/application';
import { checkCanSeeSubscribers, DomainError } from '@app/domain';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { GetStreamIdDto, GetStreamsDto, GetTopicsDto, UpdateStreamDto } from './channels.dto';

/** ≈ the channel views of zerver/views/streams.py. */
@Controller('api/v1')
export class ChannelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly channels: ChannelQueries,
    private readonly views: ChannelViews,
    private readonly subscriptions: SubscriptionQueries,
    private readonly topics: ChannelTopics,
    private readonly users: UserQueries,
  ) {}

  @Get('streams')
  @Summary('Channels the caller can see, by the given criteria, ordered by name.')
  async list(@CurrentUser() { actor, user }: AuthenticatedUser, @Params() params: GetStreamsDto) {
    const channels = await this.channels.streamsFor(actor, {
      includePublic: params.include_public,
      includeWebPublic: params.include_web_public,
      includeSubscribed: params.include_subscribed,
      excludeArchived: params.exclude_archived,
      includeAll: params.include_all || params.include_all_active,
      includeOwnerSubscribed: params.include_owner_subscribed,
      includeCanAccessContent: params.include_can_access_content,
      botOwnerId: user.bot_owner_id,
    });
    const streams = await this.views.streams(actor.realmId, channels);
    if (!params.include_default) return { streams };
    const defaults = new Set(channels.filter((c) => c.is_default === true).map((c) => c.stream_id));
    return { streams: streams.map((s) => ({ ...s, is_default: defaults.has(s.stream_id) })) };
  }

  @Get('streams/:stream_id')
  @Summary('One channel.')
  async one(@CurrentUser() { actor }: AuthenticatedUser, @Param('stream_id') rawId: string) {
    const { channel } = await this.channels.accessById(actor, intPathParam(rawId), { requireContentAccess: false });
    return { stream: await this.views.stream(actor.realmId, channel) };
  }

  @Get('get_stream_id')
  @Summary('The id of the channel with this name.')
  async idByName(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: GetStreamIdDto) {
    const { channel } = await this.channels.accessByName(actor, params.stream);
    return { stream_id: channel.stream_id };
  }

  @Patch('streams/:stream_id')
  @Summary('Rename a channel, change its description, privacy, topics policy, folder, default status or message retention (owners), or unarchive it.')
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Param('stream_id') rawId: string, @Params() params: UpdateStreamDto) {
    await this.commands.execute(
      new UpdateChannelCommand({ actor }, intPathParam(rawId), {
        newName: params.new_name,
        description: params.description,
        isPrivate: params.is_private,
        historyPublicToSubscribers: params.history_public_to_subscribers,
        isWebPublic: params.is_web_public,
        isArchived: params.is_archived,
        topicsPolicy: params.topics_policy,
        isDefault: params.is_default_stream,
        messageRetentionDays: params.message_retention_days,
      }),
    );
    // update_stream_backend changes the folder after the other properties (do_change_stream_folder).
    if (params.folder_id !== undefined) {
      await this.commands.execute(new ChangeChannelFolderCommand({ actor }, intPathParam(rawId), params.folder_id));
    }
    return {};
  }

  @Delete('streams/:stream_id')
  @Summary('Archive a channel.')
  async archive(@CurrentUser() { actor }: AuthenticatedUser, @Param('stream_id') rawId: string) {
    await this.commands.execute(new DeactivateChannelCommand({ actor }, intPathParam(rawId)));
    return {};
  }

  @Get('streams/:stream_id/members')
  @Summary('The ids of a channel\'s subscribers.')
  async members(@CurrentUser() { actor }: AuthenticatedUser, @Param('stream_id') rawId: string) {
    const { channel, isSubscribed } = await this.channels.accessById(actor, intPathParam(rawId), { requireContentAccess: false });
    checkCanSeeSubscribers(actor, accessFactsOf(channel), isSubscribed);
    return { subscribers: await this.subscriptions.subscriberIds(actor.realmId, channel.stream_id) };
  }

  @Get('users/me/:stream_id/topics')
  @Summary('The topics of a channel, newest first.')
  async topicsOf(@CurrentUser() { actor }: AuthenticatedUser, @Param('stream_id') rawId: string, @Params() params: GetTopicsDto) {
    const { channel } = await this.channels.accessById(actor, intPathParam(rawId));
    return { topics: await this.topics.topicsFor(actor, channel, { allowEmptyTopicName: params.allow_empty_topic_name ?? false }) };
  }
}
