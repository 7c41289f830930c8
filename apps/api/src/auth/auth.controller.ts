import { Controller, Get, Inject, Post } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, AuthenticationService, checkDevAuthAvailable, LOGGER, RATE_LIMIT_STORE, type RateLimitStorePort, UserQueries } from '@app/application';
import type { AppConfig } from '@app/config';
import { normalizeEmail } from '@app/domain';
import { RateLimiter } from '../http/rate-limiter';
import { Public } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { RealmContext } from '../http/realm-context';
import { Summary } from '../openapi/summary.decorator';
import { DevFetchApiKeyDto, FetchApiKeyDto } from './auth.dto';

/** How clients log in: ≈ zerver/views/auth.py api_fetch_api_key and views/development/dev_login.py. */
@Controller('api/v1')
export class AuthController {
  private readonly limiter: RateLimiter;

  constructor(
    private readonly authentication: AuthenticationService,
    private readonly realmContext: RealmContext,
    private readonly users: UserQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) rateLimitStore: RateLimitStorePort,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.limiter = new RateLimiter(rateLimitStore, logger);
  }

  /**
   * Besides the per-IP limit of every public endpoint, each attempt counts against the account
   * named (zproject/backends.py rate_limit_auth, RateLimitedAuthenticationByUsername): past the
   * limit the attempt is refused before the password is looked at; a success clears the count.
   */
  @Post('fetch_api_key')
  @Public()
  @Summary('Exchange an email address and password for the account\'s API key.')
  async fetchApiKey(@Params() params: FetchApiKeyDto) {
    const rule = this.config.rateLimits.authenticate;
    const key = `authenticate:${normalizeEmail(params.username)}`;
    if (rule) await this.limiter.hit(key, rule);
    const realm = await this.realmContext.current();
    const { user, apiKey } = await this.authentication.authenticatePassword(realm.id, params.username, params.password);
    if (rule && RateLimiter.counts(rule)) await this.limiter.reset(key);
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
