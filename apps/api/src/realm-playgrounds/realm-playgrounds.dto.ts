import { MAX_PYGMENTS_LANGUAGE_LENGTH } from '@app/domain';
import { StringParam } from '../http/params/param.decorators';

/** POST /realm/playgrounds (add_realm_playground): every field is required. */
export class AddRealmPlaygroundDto {
  @StringParam({ description: 'The name shown for the playground in the code block\'s popover.' })
  name!: string;

  @StringParam({ description: 'An RFC 6570 URL template whose only variable is `code`, the code block\'s content.' })
  url_template!: string;

  @StringParam({
    maxLength: MAX_PYGMENTS_LANGUAGE_LENGTH,
    description: 'The Pygments language name of the code blocks the playground serves (letters, digits, spaces and `_+-./#`).',
  })
  pygments_language!: string;
}
