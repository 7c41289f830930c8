import { pythonStrip } from '../shared/printable-text';
import { LinkifierValidationError } from './linkifiers.errors';
import { prepareLinkifierSource } from './linkify';
import { runsInLinearTime } from './linear-regexp';
import { Re2SyntaxError, translateRe2Pattern } from './re2-pattern';
import { isValidUrlTemplate, urlTemplateVariables } from './url-template';

const BLANK = 'This field cannot be blank.';
const NOT_UNIQUE = 'Realm filter with this Realm and Pattern already exists.';

/** Python's min() of strings and repr() of a str: code-point order, single quotes. */
const pyMin = (names: string[]) => names.reduce((a, b) => (a < b ? a : b));
const pyRepr = (name: string) => `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The named groups of a pattern (RealmFilter.clean's filter_pattern_validator), or the error Zulip reports. */
function checkPattern(pattern: string): { groupNames: string[] } | { error: string } {
  let translated;
  try {
    translated = translateRe2Pattern(pattern);
  } catch (error) {
    if (error instanceof Re2SyntaxError) return { error: `Bad regular expression: ${error.message}` };
    throw error;
  }
  // Beyond re2: the pattern must run on V8's linear-time engine (docs/linkifiers.md).
  if (!runsInLinearTime(prepareLinkifierSource(translated.source))) {
    return { error: 'Bad regular expression: pattern too complex to be matched in linear time' };
  }
  return { groupNames: translated.groupNames };
}

/**
 * do_add_linkifier / do_update_linkifier: strip both, then RealmFilter.full_clean in Django's
 * order (blank fields and the URL template validator, then clean(): the regular expression and the
 * groups against the template's variables, then the unique pattern), collecting every message.
 */
export function checkLinkifier(rawPattern: string, rawUrlTemplate: string, otherPatterns: string[]): { pattern: string; urlTemplate: string } {
  const pattern = pythonStrip(rawPattern);
  const urlTemplate = pythonStrip(rawUrlTemplate);
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (pattern === '') add('pattern', BLANK);
  if (urlTemplate === '') add('url_template', BLANK);
  else if (!isValidUrlTemplate(urlTemplate)) add('url_template', 'Invalid URL template.');
  const checked = checkPattern(pattern);
  if ('error' in checked) add('__all__', checked.error);
  else if (isValidUrlTemplate(urlTemplate)) {
    const groups = new Set(checked.groupNames);
    const variables = new Set(urlTemplateVariables(urlTemplate));
    const missingInPattern = [...variables].filter((v) => !groups.has(v));
    const missingInTemplate = [...groups].filter((g) => !variables.has(g));
    if (missingInPattern.length > 0) add('__all__', `Group ${pyRepr(pyMin(missingInPattern))} in URL template is not present in linkifier pattern.`);
    else if (missingInTemplate.length > 0) add('__all__', `Group ${pyRepr(pyMin(missingInTemplate))} in linkifier pattern is not present in URL template.`);
  }
  if (!errors.pattern && otherPatterns.includes(pattern)) add('__all__', NOT_UNIQUE);
  if (Object.keys(errors).length > 0) throw new LinkifierValidationError(errors);
  return { pattern, urlTemplate };
}
