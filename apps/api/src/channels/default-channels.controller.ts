import { Controller, Delete, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AddDefaultChannelCommand, RemoveDefaultChannelCommand } from '@app/application';
import { CurrentUser, RequireRole } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { DefaultChannelDto } from './default-channels.dto';

/**
 * ≈ zerver/views/streams.py add_default_stream, remove_default_stream. The list itself is read
 * from `/register` (`realm_default_streams`) and `GET /streams?include_default=true`, as in Zulip.
 */
@Controller('api/v1/default_streams')
export class DefaultChannelsController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @RequireRole('administrator')
  @Summary('Make a public channel a default channel, which new users join (administrators).')
  async add(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: DefaultChannelDto) {
    await this.commands.execute(new AddDefaultChannelCommand({ actor }, p.stream_id));
    return {};
  }

  @Delete()
  @RequireRole('administrator')
  @Summary('Stop a channel being a default channel (administrators).')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: DefaultChannelDto) {
    await this.commands.execute(new RemoveDefaultChannelCommand({ actor }, p.stream_id));
    return {};
  }
}
