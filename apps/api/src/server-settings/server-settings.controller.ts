import { Controller, Get, Inject } from '@nestjs/common';
import { APP_CONFIG, versionFields } from '@app/application';
import type { AppConfig } from '@app/config';
import { Public } from '../http/auth.decorators';
import { RealmContext } from '../http/realm-context';
import { textToHtml } from '../http/html';

/** GET /server_settings: what a client needs before it logs in (no authentication, spec A2). */
@Controller('api/v1/server_settings')
export class ServerSettingsController {
  constructor(
    private readonly realmContext: RealmContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  async get() {
    const realm = await this.realmContext.current();
    const realmUrl = this.config.externalUrl;
    return {
      // Deprecated in favour of external_authentication_methods, still read by older clients.
      authentication_methods: {
        password: true,
        dev: this.config.env === 'development',
        email: true,
        ldap: false,
        remoteuser: false,
        github: false,
        azuread: false,
        gitlab: false,
        apple: false,
        google: false,
        saml: false,
        'openid connect': false,
        discord: false,
      },
      external_authentication_methods: [],
      ...versionFields({ zulipAliases: this.config.zulipAliases }),
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_uri: realmUrl,
      realm_url: realmUrl,
      realm_name: realm.name,
      realm_icon: `${realmUrl}/static/images/realm-icon.svg`,
      realm_description: textToHtml(realm.description),
      realm_web_public_access_enabled: false,
    };
  }
}
