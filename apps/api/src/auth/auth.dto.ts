import { StringParam } from '../http/params/param.decorators';

export class FetchApiKeyDto {
  @StringParam({ description: 'The account\'s email address.' })
  username!: string;

  @StringParam({ description: 'The account\'s password.' })
  password!: string;
}

export class DevFetchApiKeyDto {
  @StringParam({ description: 'The account\'s email address.' })
  username!: string;
}
