/**
 * RFC 6570 URI templates, as Zulip's linkifiers use them (the `uri_template` Python package):
 * validation, the variables a template names, and expansion of string values (every level-4
 * operator, prefix modifiers; explode is accepted and, with string values, changes nothing).
 */

type VarSpec = { name: string; prefix: number | null; explode: boolean };
type Expression = { operator: string; vars: VarSpec[] };
type Part = string | Expression;

const OPERATORS = '+#./;?&';
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const VARSPEC = /^(.+?)(?::([1-9][0-9]{0,3})|(\*))?$/;

function parse(template: string): Part[] | null {
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    const close = template.indexOf('}', i);
    if (open < 0) {
      if (close >= 0) return null;
      parts.push(template.slice(i));
      break;
    }
    if (close >= 0 && close < open) return null;
    if (open > i) parts.push(template.slice(i, open));
    const end = template.indexOf('}', open);
    if (end < 0) return null;
    let body = template.slice(open + 1, end);
    if (body.includes('{')) return null;
    let operator = '';
    if (body !== '' && OPERATORS.includes(body[0])) {
      operator = body[0];
      body = body.slice(1);
    }
    if (body === '') return null;
    const vars: VarSpec[] = [];
    for (const spec of body.split(',')) {
      const m = VARSPEC.exec(spec);
      if (!m || !VARNAME.test(m[1])) return null;
      vars.push({ name: m[1], prefix: m[2] ? Number(m[2]) : null, explode: m[3] === '*' });
    }
    parts.push({ operator, vars });
    i = end + 1;
  }
  return parts;
}

/** uri_template.validate. */
export const isValidUrlTemplate = (template: string): boolean => parse(template) !== null;

/** uri_template.URITemplate(template).variable_names (the template must be valid). */
export function urlTemplateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const part of parse(template) ?? []) if (typeof part !== 'string') for (const v of part.vars) names.add(v.name);
  return [...names];
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Percent-encodes UTF-8 bytes of what is not allowed; with `allowReserved`, keeps reserved characters and %XX triplets. */
function encode(value: string, allowReserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; ) {
    const cp = value.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (allowReserved && ch === '%' && /^%[0-9A-Fa-f]{2}/.test(value.slice(i))) {
      out += value.slice(i, i + 3);
      i += 3;
      continue;
    }
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) out += ch;
    else for (const byte of new TextEncoder().encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    i += ch.length;
  }
  return out;
}

const OPERATOR_RULES: Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; allowReserved: boolean }> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

/** Expands a valid template; undefined values are left out, as RFC 6570 says. */
export function expandUrlTemplate(template: string, values: Record<string, string | undefined>): string {
  const parts = parse(template);
  if (!parts) throw new Error(`Invalid URL template: ${template}`);
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const rule = OPERATOR_RULES[part.operator];
    const pieces: string[] = [];
    for (const v of part.vars) {
      const raw = values[v.name];
      if (raw === undefined || raw === null) continue;
      const value = v.prefix === null ? raw : [...raw].slice(0, v.prefix).join('');
      const encoded = encode(value, rule.allowReserved);
      if (rule.named) pieces.push(encoded === '' ? `${v.name}${rule.ifEmpty}` : `${v.name}=${encoded}`);
      else pieces.push(encoded);
    }
    if (pieces.length > 0) out += rule.first + pieces.join(rule.sep);
  }
  return out;
}
