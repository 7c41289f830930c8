import { Controller, Get, Header, Param } from '@nestjs/common';
import { UserQueries } from '@app/application';
import { Public } from '../http/auth.decorators';
import { escapeHtml } from '../http/html';
import { RealmContext } from '../http/realm-context';

const COLOURS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a'];

/**
 * `/avatar/<user_id>` (the avatar_url of users): until avatars can be uploaded, a generated square
 * with the user's initial. Public, as avatars are in Zulip, and never sniffed as anything but SVG.
 */
@Controller('avatar')
export class AvatarsController {
  constructor(
    private readonly users: UserQueries,
    private readonly realmContext: RealmContext,
  ) {}

  @Get(':user_id')
  @Public()
  @Header('Content-Type', 'image/svg+xml')
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
  @Header('Cache-Control', 'public, max-age=600')
  async avatar(@Param('user_id') rawId: string): Promise<string> {
    const realm = await this.realmContext.current();
    const user = /^[0-9]{1,15}$/.test(rawId) ? await this.users.byId(realm.id, Number(rawId)) : null;
    const initial = escapeHtml([...(user?.full_name.trim() || '?')][0].toUpperCase());
    const colour = COLOURS[(user?.user_id ?? 0) % COLOURS.length];
    return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100"><rect width="100" height="100" fill="${colour}"/><text x="50" y="66" font-family="sans-serif" font-size="48" text-anchor="middle" fill="#fff">${initial}</text></svg>`;
  }
}
