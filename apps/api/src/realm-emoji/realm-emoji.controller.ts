import { Controller, Delete, Get, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { AddRealmEmojiCommand, RealmEmojiQueries, RemoveRealmEmojiCommand, type UploadedFile } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';

/** The files of a multipart body (multer's `any()` puts them in `req.files`). */
const filesOf = (request: Request): UploadedFile[] => {
  const files = (request as Request & { files?: Express.Multer.File[] | Record<string, Express.Multer.File[]> }).files;
  const list = Array.isArray(files) ? files : Object.values(files ?? {}).flat();
  return list.map((f) => ({ size: f.size, data: f.buffer }));
};

/** ≈ zerver/views/realm_emoji.py */
@Controller('api/v1/realm/emoji')
export class RealmEmojiController {
  constructor(
    private readonly commands: CommandBus,
    private readonly emoji: RealmEmojiQueries,
  ) {}

  @Get()
  @Summary('The organization\'s custom emoji, deactivated ones included, by id.')
  async list(@CurrentUser() { actor }: AuthenticatedUser) {
    return { emoji: await this.emoji.list(actor.realmId) };
  }

  @Post(':emoji_name')
  @Summary('Upload a custom emoji: exactly one image file (PNG, GIF, JPEG or WebP, at most 5 MiB) in a multipart body.')
  async upload(@CurrentUser() { actor }: AuthenticatedUser, @Param('emoji_name') name: string, @Req() request: Request) {
    await this.commands.execute(new AddRealmEmojiCommand({ actor }, name, filesOf(request)));
    return {};
  }

  @Delete(':emoji_name')
  @Summary('Deactivate a custom emoji (its author, or an administrator).')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('emoji_name') name: string) {
    await this.commands.execute(new RemoveRealmEmojiCommand({ actor }, name));
    return {};
  }
}
