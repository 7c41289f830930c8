import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { BLOB_STORE, type BlobStorePort, emojiBlobKey, RealmEmojiQueries } from '@app/application';
import { RouteNotFoundError } from '../http/api.errors';
import { Public } from '../http/auth.decorators';

/**
 * `/user_avatars/<realm_id>/emoji/images/<file>`: custom emoji images, public as Zulip's avatar
 * files are (spectators and emails show them). Served only as the image type recognised at upload,
 * never sniffed, and with no power to run anything.
 */
@Controller('user_avatars')
export class EmojiImagesController {
  constructor(
    private readonly emoji: RealmEmojiQueries,
    @Inject(BLOB_STORE) private readonly blobs: BlobStorePort,
  ) {}

  @Get(':realm_id/emoji/images/:file_name')
  @Public()
  async image(@Param('realm_id') rawRealmId: string, @Param('file_name') fileName: string, @Res() response: Response): Promise<void> {
    if (!/^[0-9]{1,15}$/.test(rawRealmId) || !/^[0-9a-f]{8}\.[a-z]{3,4}$/.test(fileName)) throw new RouteNotFoundError();
    const realmId = Number(rawRealmId);
    const emoji = await this.emoji.byFileName(realmId, fileName);
    const blob = emoji && (await this.blobs.open(emojiBlobKey(realmId, fileName)));
    if (!emoji || !blob) throw new RouteNotFoundError();
    response.status(200);
    response.setHeader('Content-Type', emoji.content_type);
    response.setHeader('Content-Length', String(blob.size));
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Content-Security-Policy', "default-src 'none'");
    response.setHeader('Cache-Control', 'public, max-age=86400');
    blob.stream.on('error', () => response.destroy());
    blob.stream.pipe(response);
  }
}
