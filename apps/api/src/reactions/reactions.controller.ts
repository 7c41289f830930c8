import { Controller, Delete, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AddReactionCommand, RemoveReactionCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { AddReactionDto, RemoveReactionDto } from './reactions.dto';

/** ≈ zerver/views/reactions.py. Message objects carry `reactions`; changes arrive as `reaction` events. */
@Controller('api/v1/messages')
export class ReactionsController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':message_id/reactions')
  @Summary('Add an emoji reaction to a message.')
  async add(@CurrentUser() { actor }: AuthenticatedUser, @Param('message_id') rawId: string, @Params() params: AddReactionDto) {
    await this.commands.execute(
      new AddReactionCommand({ actor }, intPathParam(rawId), { emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type }),
    );
    return {};
  }

  @Delete(':message_id/reactions')
  @Summary('Remove your emoji reaction from a message.')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('message_id') rawId: string, @Params() params: RemoveReactionDto) {
    await this.commands.execute(
      new RemoveReactionCommand({ actor }, intPathParam(rawId), { emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type }),
    );
    return {};
  }
}
