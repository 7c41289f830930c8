import { Controller, Get, Inject, Post } from '@nestjs/common';
import { API_LIMITS, APP_CONFIG, RANDOM, type RandomPort, versionFields } from '@app/application';
import type { AppConfig } from '@app/config';
import { Params } from '../http/params/params.decorator';
import { RegisterDto } from './register.dto';
import { RegisterState } from './register-state';
import { CurrentUser } from '../http/auth.decorators';
import type { AuthenticatedUser } from '../http/request-context';
import type { Actor } from '@app/domain';

/**
 * POST /register (and GET, as the spec names it): a queue id, the server's version, the R5
 * constants and the initial state built so far (RegisterState); the event queue itself arrives
 * with the events issue.
 */
@Controller('api/v1/register')
export class RegisterController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RANDOM) private readonly random: RandomPort,
    private readonly initialState: RegisterState,
  ) {}

  @Post()
  register(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: RegisterDto) {
    return this.state(actor, params);
  }

  @Get()
  registerViaGet(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: RegisterDto) {
    return this.state(actor, params);
  }

  private async state(actor: Actor, params: RegisterDto) {
    return {
      ...(await this.initialState.fetch(actor, params.fetch_event_types ?? params.event_types)),
      queue_id: `${Date.now()}:${this.random.alphanumeric(8)}`,
      last_event_id: -1,
      ...versionFields({ zulipAliases: this.config.zulipAliases }),
      ...API_LIMITS,
      max_file_upload_size_mib: this.config.maxFileUploadSizeMib,
    };
  }
}
