import { Controller, Get, Header, Inject } from '@nestjs/common';
import { APP_CONFIG } from '@app/application';
import { emojiCodeToNames } from '@app/domain';
import type { AppConfig } from '@app/config';
import { Public } from '../http/auth.decorators';
import { RealmContext } from '../http/realm-context';
import { escapeHtml } from '../http/html';

/** Emoji data, built once: it never changes while the server runs. */
let emojiApiJson: string | undefined;

/**
 * Static files clients fetch: the organization's default square icon (realm_icon, its initial on a
 * coloured square) and the emoji names (`server_emoji_data_url` of POST /register).
 */
@Controller('static')
export class StaticController {
  constructor(
    private readonly realmContext: RealmContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('images/realm-icon.svg')
  @Public()
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=3600')
  @Header('X-Content-Type-Options', 'nosniff')
  async realmIcon(): Promise<string> {
    const realm = await this.realmContext.current().catch(() => undefined);
    const initial = escapeHtml([...(realm?.name.trim() || '?')][0].toUpperCase());
    return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" rx="16" fill="#6492fe"/><text x="64" y="86" font-family="sans-serif" font-size="64" text-anchor="middle" fill="#fff">${initial}</text></svg>`;
  }

  /** Zulip's static/generated/emoji/emoji_api.json: `code_to_names` of every Unicode emoji this server knows. */
  @Get('generated/emoji/emoji_api.json')
  @Public()
  @Header('Content-Type', 'application/json')
  @Header('Cache-Control', 'public, max-age=86400')
  @Header('X-Content-Type-Options', 'nosniff')
  emojiApi(): string {
    emojiApiJson ??= JSON.stringify({ code_to_names: emojiCodeToNames() });
    return emojiApiJson;
  }
}
