import { Controller, Get, Inject, Post } from '@nestjs/common';
import { APP_CONFIG, AuthenticationService, checkDevAuthAvailable, UserQueries } from '@app/application';
import type { AppConfig } from '@app/config';
import { Public } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { RealmContext } from '../http/realm-context';
import { Summary } from '../openapi/summary.decorator';
import { DevFetchApiKeyDto, FetchApiKeyDto } from './auth.dto';

/** How clients log in: ≈ zerver/views/auth.py api_fetch_api_key and views/development/dev_login.py. */
@Controller('api/v1')
export class AuthController {
  constructor(
    private readonly authentication: AuthenticationService,
    private readonly realmContext: RealmContext,
    private readonly users: UserQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('fetch_api_key')
  @Public()
  @Summary('Exchange an email address and password for the account\'s API key.')
  async fetchApiKey(@Params() params: FetchApiKeyDto) {
    const realm = await this.realmContext.current();
    const { user, apiKey } = await this.authentication.authenticatePassword(realm.id, params.username, params.password);
    return { api_key: apiKey, email: user.delivery_email, user_id: user.user_id };
  }

  @Post('dev_fetch_api_key')
  @Public()
  @Summary('Development servers only: any account\'s API key, without a password.')
  async devFetchApiKey(@Params() params: DevFetchApiKeyDto) {
    const realm = await this.realmContext.current();
    const { user, apiKey } = await this.authentication.authenticateDevelopment(realm.id, params.username);
    return { api_key: apiKey, email: user.delivery_email, user_id: user.user_id };
  }

  @Get('dev_list_users')
  @Public()
  @Summary('Development servers only: the accounts one can log in as, as a Zulip development server lists them.')
  async devListUsers() {
    checkDevAuthAvailable(this.config.env);
    const realm = await this.realmContext.current();
    const users = (await this.users.list(realm.id)).filter((u) => u.is_active && !u.is_bot);
    const entry = (email: string) => ({ email, realm_uri: this.config.externalUrl, realm_url: this.config.externalUrl });
    return {
      direct_admins: users.filter((u) => u.is_admin).map((u) => entry(u.delivery_email)),
      direct_users: users.filter((u) => !u.is_admin).map((u) => entry(u.delivery_email)),
    };
  }
}
