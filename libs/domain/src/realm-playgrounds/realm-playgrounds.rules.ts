import { isValidUrlTemplate, urlTemplateVariables } from '../linkifiers/url-template';
import { pythonStrip } from '../shared/printable-text';
import { InvalidPygmentsLanguageError, RealmPlaygroundValidationError } from './realm-playgrounds.errors';

/** RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH (the parameter's limit, checked before stripping). */
export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;

/**
 * check_pygments_language's characters. As in Zulip's pattern, `+-.` is a range, so a comma passes
 * too; a language unknown to Pygments is fine (a playground may serve a custom one).
 */
const PYGMENTS_LANGUAGE = /^[ a-zA-Z0-9_+-./#]*$/;

const BLANK = 'This field cannot be blank.';
const NOT_UNIQUE = 'Realm playground with this Realm, Pygments language and Name already exists.';

export type PlaygroundFields = { name: string; pygmentsLanguage: string; urlTemplate: string };

/**
 * add_realm_playground, then check_add_realm_playground: the language's characters as sent, then
 * every value stripped and RealmPlayground.full_clean in Django's order, collecting every message:
 * blank fields and the URL template validator (model field order: url_template, name,
 * pygments_language), RealmPlayground.clean (the template's only variable is `code`), and the
 * unique (language, name) pair, checked only when neither field failed.
 */
export function checkPlayground(raw: PlaygroundFields, others: PlaygroundFields[]): PlaygroundFields {
  if (!PYGMENTS_LANGUAGE.test(raw.pygmentsLanguage)) throw new InvalidPygmentsLanguageError();
  const name = pythonStrip(raw.name);
  const pygmentsLanguage = pythonStrip(raw.pygmentsLanguage);
  const urlTemplate = pythonStrip(raw.urlTemplate);
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (urlTemplate === '') add('url_template', BLANK);
  else if (!isValidUrlTemplate(urlTemplate)) add('url_template', 'Invalid URL template.');
  if (name === '') add('name', BLANK);
  if (pygmentsLanguage === '') add('pygments_language', BLANK);
  if (isValidUrlTemplate(urlTemplate)) {
    const variables = new Set(urlTemplateVariables(urlTemplate));
    if (!variables.has('code')) add('__all__', 'Missing the required variable "code" in the URL template');
    else if (variables.size !== 1) add('__all__', '"code" should be the only variable present in the URL template');
  }
  if (!errors.name && !errors.pygments_language && others.some((o) => o.name === name && o.pygmentsLanguage === pygmentsLanguage)) add('__all__', NOT_UNIQUE);
  if (Object.keys(errors).length > 0) throw new RealmPlaygroundValidationError(errors);
  return { name, pygmentsLanguage, urlTemplate };
}
