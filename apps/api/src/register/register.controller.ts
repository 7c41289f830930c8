import { Controller, Get, Inject, Post } from '@nestjs/common';
import { API_LIMITS, APP_CONFIG, RANDOM, type RandomPort, versionFields } from '@app/application';
import type { AppConfig } from '@app/config';
import { Params } from '../http/params/params.decorator';
import { RegisterDto } from './register.dto';

/**
 * POST /register (and GET, as the spec names it). For now: a queue id, the server's version and
 * the R5 constants; the initial state and the event queue itself arrive with the events issue.
 */
@Controller('api/v1/register')
export class RegisterController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RANDOM) private readonly random: RandomPort,
  ) {}

  @Post()
  register(@Params() _params: RegisterDto) {
    return this.state();
  }

  @Get()
  registerViaGet(@Params() _params: RegisterDto) {
    return this.state();
  }

  private state() {
    return {
      queue_id: `${Date.now()}:${this.random.alphanumeric(8)}`,
      last_event_id: -1,
      ...versionFields({ zulipAliases: this.config.zulipAliases }),
      ...API_LIMITS,
      max_file_upload_size_mib: this.config.maxFileUploadSizeMib,
    };
  }
}
