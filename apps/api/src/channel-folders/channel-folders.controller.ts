import { Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ChannelFolderQueries, CreateChannelFolderCommand, ReorderChannelFoldersCommand, UpdateChannelFolderCommand } from '@app/application';
import { CurrentUser, RequireRole } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { CreateChannelFolderDto, GetChannelFoldersDto, ReorderChannelFoldersDto, UpdateChannelFolderDto } from './channel-folders.dto';

/** ≈ zerver/views/channel_folders.py */
@Controller('api/v1')
export class ChannelFoldersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly folders: ChannelFolderQueries,
  ) {}

  @Post('channel_folders/create')
  @RequireRole('administrator')
  @Summary('Create a channel folder (administrators).')
  async create(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: CreateChannelFolderDto) {
    const { folderId } = await this.commands.execute(new CreateChannelFolderCommand({ actor }, params.name, params.description));
    return { channel_folder_id: folderId };
  }

  @Get('channel_folders')
  @Summary('The organization\'s channel folders, by their order.')
  async list(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: GetChannelFoldersDto) {
    return { channel_folders: await this.folders.list(actor.realmId, { includeArchived: params.include_archived ?? false }) };
  }

  @Patch('channel_folders')
  @RequireRole('administrator')
  @Summary('Reorder the channel folders (administrators).')
  async reorder(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: ReorderChannelFoldersDto) {
    await this.commands.execute(new ReorderChannelFoldersCommand({ actor }, params.order));
    return {};
  }

  @Patch('channel_folders/:channel_folder_id')
  @RequireRole('administrator')
  @Summary('Rename, describe, archive or unarchive a channel folder (administrators).')
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Param('channel_folder_id') rawId: string, @Params() params: UpdateChannelFolderDto) {
    await this.commands.execute(
      new UpdateChannelFolderCommand({ actor }, intPathParam(rawId), { name: params.name, description: params.description, isArchived: params.is_archived }),
    );
    return {};
  }
}
