import { Controller, Get, Header, Inject } from '@nestjs/common';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { Public } from '../http/auth.decorators';
import { RealmContext } from '../http/realm-context';
import { escapeHtml } from '../http/html';

/** The organization's default square icon (realm_icon): its initial on a coloured square. */
@Controller('static/images')
export class StaticController {
  constructor(
    private readonly realmContext: RealmContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('realm-icon.svg')
  @Public()
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=3600')
  @Header('X-Content-Type-Options', 'nosniff')
  async realmIcon(): Promise<string> {
    const realm = await this.realmContext.current().catch(() => undefined);
    const initial = escapeHtml([...(realm?.name.trim() || '?')][0].toUpperCase());
    return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" rx="16" fill="#6492fe"/><text x="64" y="86" font-family="sans-serif" font-size="64" text-anchor="middle" fill="#fff">${initial}</text></svg>`;
  }
}
