import { IntParam, JsonParam, StringParam } from '../http/params/param.decorators';
import { shapes } from '../http/params/json-shapes';

export class CreateBotDto {
  @StringParam({ description: 'Display name.' })
  full_name!: string;

  @StringParam({ description: 'The bot\'s address becomes <short_name>-bot@<organization host>.' })
  short_name!: string;

  @IntParam({ optional: true, description: '1 generic (default), 2 incoming webhook.' })
  bot_type?: number;

  @StringParam({ optional: true })
  payload_url?: string;

  @StringParam({ optional: true })
  service_name?: string;

  @IntParam({ optional: true })
  interface_type?: number;

  @JsonParam(shapes.dict(shapes.string()), { optional: true })
  config_data?: Record<string, string>;
}
