import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A small interpreter for the JSON decoders of the Zulip mobile app (zulip-flutter, Dart).
 *
 * The app decodes every response and event with json_serializable: generated functions
 * `_$XFromJson(Map<String, dynamic> json) => X(field: <expr>, ...)` in lib/api/**\/*.g.dart, plus a
 * few hand-written `fromJson`s. A missing required key, a value of the wrong JSON type (`as num`
 * on a string) or an enum value outside `_$XEnumMap` throws in the app. This module reads those
 * Dart sources at run time and checks a JSON value against them, with the same outcomes:
 * `check('InitialSnapshot', body)` lists every place where the app's decoder would throw.
 *
 * It understands the expression shapes json_serializable generates (casts, `?.toInt()`, `??`
 * defaults, `.map(...).toList()`, `MapEntry`, `$enumDecode[Nullable]`, `X.fromJson`, `readValue:`
 * helpers, converters) and the app's hand-written decoders listed in `custom` below (each one a
 * transcription of the Dart code it names). Anything else is recorded in `unknownPatterns`: the
 * caller must fail on it, so nothing is accepted without being understood.
 */

type Env = Record<string, { value: unknown; path: string }>;

class DecodeFailure extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** A value the app treats as "absent" in `??` and `== null`. */
const isNull = (v: unknown) => v === null || v === undefined;
const jsonType = (v: unknown) =>
  v === undefined ? 'absent' : v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'map' : typeof v;
const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v)?.slice(0, 80));

/** A JSON path with list indexes and map keys that are ids left out: `$.user_status.{id}.emoji_code`. */
const keyPattern = (path: string) => path.replace(/\[\d+\]/g, '[]').replace(/\.\d+(?=\.|$)/g, '.{id}');

/** Collapses Dart source whitespace so that patterns can be matched on one line. */
export function normalizeDart(src: string): string {
  return src
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*(\?\.|\.|=>)\s*/g, '$1')
    .replace(/\s*,\s*/g, ',')
    .replace(/([([{])\s+/g, '$1')
    .replace(/\s+([)\]}])/g, '$1')
    .replace(/,([)\]}])/g, '$1')
    .trim();
}

/** Splits `s` at every top-level occurrence of `sep` (outside brackets, generics and strings). */
export function splitTop(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote && s[i - 1] !== '\\') quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if ('([{'.includes(c) || (c === '<' && /\w/.test(s[i - 1] ?? ''))) depth++;
    else if (')]}'.includes(c) || (c === '>' && s[i - 1] !== '=' && depth > 0 && s[i - 1] !== ' ')) depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      parts.push(s.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/** The index of the bracket closing the one opened at `open`. */
function matching(s: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c) && --depth === 0) return i;
  }
  return -1;
}

/** The first top-level `(`...`)` of a declaration, starting the search at `from`. */
function bracketBody(src: string, from: number): string {
  const open = src.indexOf('(', from);
  return src.slice(open + 1, matching(src, open));
}

function literal(s: string): { ok: boolean; value?: unknown } {
  if (/^'.*'$/.test(s) || /^".*"$/.test(s)) return { ok: true, value: s.slice(1, -1) };
  if (/^-?\d+(\.\d+)?$/.test(s)) return { ok: true, value: Number(s) };
  if (s === 'null') return { ok: true, value: null };
  if (s === 'true' || s === 'false') return { ok: true, value: s === 'true' };
  if (/^(const )?(<[\w,?<> ]+>)?(\[\]|\{\})$/.test(s)) return { ok: true, value: s.endsWith(']') ? [] : {} };
  if (/^[A-Z]\w*\.\w+$/.test(s)) return { ok: true, value: `<${s}>` }; // an enum constant
  return { ok: false };
}

export class DartDecoders {
  /** Class name -> the arguments of its generated constructor call (and `..field = expr` cascades). */
  readonly generated = new Map<string, string[]>();
  /** `_$XEnumMap` -> its JSON values. */
  readonly enumMaps = new Map<string, unknown[]>();
  /** `_$XEnumMap` -> enum member name -> JSON value (for fromRawString lookups). */
  private readonly enumMembers = new Map<string, Map<string, unknown>>();
  /** `$checkKeys` of block-bodied generated decoders: keys that must be present / must not be null. */
  private readonly checkKeys = new Map<string, { required: string[]; disallowNull: string[] }>();
  /** Classes whose hand-written fromJson first runs the generated one, then checks more. */
  private readonly validatedAfterGenerated = new Set<string>();
  /** Class.fromApiValue: strict (`_byApiValue[value]!`) or lenient (`?? unknown`), and its enum map. */
  private readonly apiValueEnums = new Map<string, { map: string; strict: boolean }>();
  /** `Class._readValue` switch bodies on `property`: enum name and (raw property -> return expression). */
  private readonly propertySwitches = new Map<string, { enumName: string; cases: Map<string, string> }>();
  /** Event.fromJson dispatch: type -> class, or type -> op -> class. */
  readonly eventDispatch = new Map<string, string | Map<string, string>>();
  readonly unknownPatterns = new Set<string>();
  /** Keys the app reads as optional (nullable or with a default) that were absent: not errors, but worth a look. */
  readonly absentOptional = new Set<string>();
  private readonly presentKeys = new Set<string>();

  /** The optional keys the app reads that no checked value ever carried. */
  neverSent(): string[] {
    return [...this.absentOptional].filter((path) => !this.presentKeys.has(path)).sort();
  }
  /** Classes this run decoded, for the coverage summary. */
  readonly classesSeen = new Set<string>();

  constructor(readonly libApiDir: string) {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.dart')) files.push(p);
      }
    };
    walk(libApiDir);
    for (const file of files) {
      const src = readFileSync(file, 'utf8');
      if (file.endsWith('.g.dart')) this.loadGenerated(src);
      else this.loadHandWritten(src);
    }
    if (this.eventDispatch.size === 0) throw new Error(`no Event.fromJson dispatch found under ${libApiDir}`);
  }

  private loadGenerated(src: string) {
    for (const m of src.matchAll(/^(\w+) _\$(\w+)FromJson\(\s*Map<String, dynamic> json,?\s*\) =>\s*(\w+)\(/gm)) {
      const open = m.index + m[0].length - 1;
      const close = matching(src, open);
      const args = splitTop(normalizeDart(src.slice(open + 1, close)), ',').filter((a) => a !== '');
      const cascade = /^\s*\.\.(\w+) = ([\s\S]*?);\n/.exec(src.slice(close + 1));
      if (cascade) args.push(`${cascade[1]}:${normalizeDart(cascade[2])}`);
      this.generated.set(m[2], args);
    }
    // The block form: `{ $checkKeys(json, requiredKeys: [...], disallowNullValues: [...]); return X(...); }`.
    for (const m of src.matchAll(/^(\w+) _\$(\w+)FromJson\(\s*Map<String, dynamic> json,?\s*\) \{\s*(\$checkKeys\([\s\S]*?\);)?\s*return (\w+)\(/gm)) {
      const open = m.index + m[0].length - 1;
      const args = splitTop(normalizeDart(src.slice(open + 1, matching(src, open))), ',').filter((a) => a !== '');
      const keys = (name: string) => [...(new RegExp(`${name}: const \\[([^\\]]*)\\]`).exec(m[3] ?? '')?.[1].matchAll(/'(\w+)'/g) ?? [])].map((k) => k[1]);
      this.checkKeys.set(m[2], { required: keys('requiredKeys'), disallowNull: keys('disallowNullValues') });
      if (m[3] && !/^\$checkKeys\(\s*json,\s*(requiredKeys|disallowNullValues): const \[[^\]]*\],\s*((requiredKeys|disallowNullValues): const \[[^\]]*\],?\s*)?\);$/.test(m[3])) {
        this.unknownPatterns.add(`${m[2]}: ${m[3]}`);
      }
      this.generated.set(m[2], args);
    }
    for (const m of src.matchAll(/^(\w+) _\$(\w+)FromJson\([^)]*\) \{/gm)) {
      if (!this.generated.has(m[2])) this.unknownPatterns.add(`block-bodied _$${m[2]}FromJson`);
    }
    for (const m of src.matchAll(/const (_\$\w+EnumMap) = \{([\s\S]*?)\};/g)) {
      const members = new Map<string, unknown>();
      for (const entry of splitTop(normalizeDart(m[2]), ',').filter((e) => e)) {
        const colon = entry.indexOf(':');
        members.set(entry.slice(0, colon).trim().split('.')[1], literal(entry.slice(colon + 1).trim()).value);
      }
      this.enumMembers.set(m[1], members);
      this.enumMaps.set(m[1], [...members.values()]);
    }
  }

  private loadHandWritten(src: string) {
    for (const m of src.matchAll(/factory (\w+)\.fromJson\([^)]*\) \{\s*final result = _\$\1FromJson\(json\);/g)) {
      this.validatedAfterGenerated.add(m[1]);
    }
    for (const m of src.matchAll(/static (\w+) fromApiValue\(\w+ value\) =>\s*_byApiValue\[value\](!|\s*\?\?\s*unknown);\s*static final _byApiValue = (_\$\w+EnumMap)/g)) {
      this.apiValueEnums.set(m[1], { map: m[3], strict: m[2] === '!' });
    }
    // class X ... static Object? _readValue(...) { final value = json['value']; switch (E.fromRawString(json['property'] as String)) { case ...: return ...; } }
    for (const m of src.matchAll(/class (\w+)[^{]*\{/g)) {
      const classEnd = matching(src, m.index + m[0].length - 1);
      const body = src.slice(m.index, classEnd);
      const sw = /static Object\? _readValue\([^)]*\) \{\s*final value = json\['value'\];\s*switch \((\w+)\.fromRawString\(json\['property'\] as String\)\) \{/.exec(body);
      if (!sw) continue;
      const switchBody = body.slice(sw.index + sw[0].length, matching(body, sw.index + sw[0].length - 1));
      const cases = new Map<string, string>();
      let pending: string[] = [];
      for (const part of switchBody.split(/(case [\w.]+:)/)) {
        const label = /^case (?:\w+\.)?(\w+):$/.exec(part);
        if (label) pending.push(label[1]);
        else if (part.trim() && pending.length) {
          for (const member of pending) cases.set(member, normalizeDart(part));
          pending = [];
        }
      }
      this.propertySwitches.set(m[1], { enumName: sw[1], cases });
    }
    const dispatch = /factory Event\.fromJson\(Map<String, dynamic> json\) \{([\s\S]*?)\n {2}\}/.exec(src);
    if (dispatch) {
      let current: Map<string, string> | undefined;
      for (const line of dispatch[1].split('\n')) {
        const direct = /case '(\w+)': return (\w+)\.fromJson\(json\);/.exec(line);
        const group = /case '(\w+)':\s*$/.exec(line);
        if (current && /^\s*\}\s*$/.test(line)) current = undefined;
        else if (direct && current) current.set(direct[1], direct[2]);
        else if (direct) this.eventDispatch.set(direct[1], direct[2]);
        else if (group) this.eventDispatch.set(group[1], (current = new Map()));
        else if (/case |return /.test(line) && !/default: return UnexpectedEvent\.fromJson\(json\);/.test(line)) this.unknownPatterns.add(`Event.fromJson line: ${line.trim()}`);
      }
    }
  }

  /** Every place where the app's decoder for `className` would throw on `value`. */
  check(className: string, value: unknown, path = '$'): string[] {
    const errors = new Set<string>();
    this.guard(errors, () => this.decodeClass(className, value, path, errors));
    return [...errors];
  }

  /** Which app class decodes this event (as Event.fromJson), or undefined when it becomes an UnexpectedEvent. */
  eventClass(event: { type?: unknown; op?: unknown }): string | undefined {
    const entry = this.eventDispatch.get(String(event.type));
    return typeof entry === 'string' ? entry : entry?.get(String(event.op));
  }

  private unknown(pattern: string, path: string): never {
    this.unknownPatterns.add(pattern);
    throw new DecodeFailure(path, `decoder pattern not understood by the checker: ${pattern}`);
  }

  /** Runs `fn`, turning a failure into an entry of `errors` (the app would stop at the first). */
  private guard<T>(errors: Set<string>, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof DecodeFailure)) throw e;
      errors.add(`${e.path.replace(/\[\d+\]/g, '[]')}: ${e.message}`);
      return undefined;
    }
  }

  private decodeClass(cls: string, value: unknown, path: string, errors: Set<string>): unknown {
    this.classesSeen.add(cls);
    const custom = this.custom[cls];
    if (custom) return custom(value, path, errors);
    const args = this.generated.get(cls);
    if (!args) return this.unknown(`${cls}.fromJson`, path);
    if (jsonType(value) !== 'map') throw new DecodeFailure(path, `expected an object for ${cls}, got ${show(value)}`);
    const keys = this.checkKeys.get(cls);
    for (const key of keys?.required ?? []) if (!(key in (value as object))) throw new DecodeFailure(`${path}.${key}`, `required key missing ($checkKeys of ${cls})`);
    for (const key of keys?.disallowNull ?? []) if ((value as any)[key] === null) throw new DecodeFailure(`${path}.${key}`, `null not allowed ($checkKeys of ${cls})`);
    const env: Env = { json: { value, path } };
    const fields: Record<string, unknown> = {};
    for (const arg of args) {
      const named = /^(\w+):(.*)$/.exec(arg);
      const [name, expr] = named ? [named[1], named[2]] : ['', arg];
      this.guard(errors, () => {
        fields[name] = this.evaluate(expr, env, errors);
      });
    }
    if (this.validatedAfterGenerated.has(cls)) this.crunchyShell(cls, fields, path);
    return fields;
  }

  /**
   * The checks some hand-written fromJsons run after the generated one ("crunchy-shell validation"),
   * transcribed from the app's source; a class with such a check that is not listed here is reported.
   */
  private crunchyShell(cls: string, fields: Record<string, unknown>, path: string) {
    const require = (field: string, kind: string, why: string) => {
      if (jsonType(fields[field]) !== kind) throw new DecodeFailure(path, `${cls}.fromJson requires ${field} (${kind}) ${why}`);
    };
    switch (cls) {
      case 'DeleteMessageEvent': // events.dart: for stream messages, `streamId as int; topic as String`
      case 'TypingEvent': // events.dart: stream -> streamId, topic; direct -> recipientIds
        if (fields.messageType === 'stream') {
          require('streamId', 'number', 'for a stream message');
          require('topic', 'string', 'for a stream message');
        } else if (cls === 'TypingEvent') require('recipientIds', 'list', 'for a direct message');
        return;
      case 'UpdateMessageFlagsMessageDetail': // events.dart: stream -> streamId, topic; direct -> userIds
        if (fields.type === 'stream') {
          require('streamId', 'number', 'for a stream message');
          require('topic', 'string', 'for a stream message');
        } else require('userIds', 'list', 'for a direct message');
        return;
      case 'UpdateMessageFlagsRemoveEvent': // events.dart: flag read -> messageDetails present
        if (fields.flag === 'read') require('messageDetails', 'map', 'when the flag is read');
        return;
      case 'PollVoteEventSubmessage': // submessage.dart: key "<sender id|canned>,<index>"
        if (!/^(\d+|canned),\d+$/.test(String(fields.key))) throw new DecodeFailure(path, `PollVoteEventSubmessage key ${show(fields.key)}`);
        return;
      default:
        this.unknown(`${cls}.fromJson validation after the generated decoder`, path);
    }
  }

  private evaluate(expr: string, env: Env, errors: Set<string>): unknown {
    const s = expr.trim();
    const pathOf = () => env.json?.path ?? '$';
    // ( ... ) around the whole expression
    if (s.startsWith('(') && matching(s, 0) === s.length - 1) return this.evaluate(s.slice(1, -1), env, errors);
    // a == null ? null : b
    const ternary = splitTop(s, ' == null ? null : ');
    if (ternary.length === 2) {
      const v = this.evaluate(ternary[0], env, errors);
      return isNull(v) ? null : this.evaluate(ternary[1], env, errors);
    }
    // a ?? default
    const orElse = splitTop(s, ' ?? ');
    if (orElse.length === 2) {
      const v = this.evaluate(orElse[0], env, errors);
      return isNull(v) ? this.evaluate(orElse[1], env, errors) : v;
    }
    // a as T / a as T?
    if (splitTop(s, ' as ').length >= 2) return this.located(s, env, errors).value;
    const lit = literal(s);
    if (lit.ok) return lit.value;
    // json_serializable's helper for nullable values with a converter: null stays null, else the converter
    // (here always an identity converter, NullableInt/StringJsonConverter; anything else is reported).
    const converted = /^_\$JsonConverterFromJson<[\w<>,?]+>\((.*),const (Nullable(Int|String)JsonConverter)\(\)\.fromJson\)$/.exec(s);
    if (converted) return this.located(converted[1], env, errors).value;
    // a call: receiver.method(args) or function(args)
    if (s.endsWith(')')) {
      let open = -1;
      for (let i = s.length - 1, depth = 0; i >= 0; i--) {
        if (s[i] === ')') depth++;
        else if (s[i] === '(' && --depth === 0) {
          open = i;
          break;
        }
      }
      const head = s.slice(0, open);
      const argList = splitTop(s.slice(open + 1, -1), ',').filter((a) => a !== '');
      const call = /^(.*?)(\?\.|\.)?(\$?\w+)$/.exec(head);
      if (call) return this.call(call[1], call[2] ?? '', call[3], argList, env, errors, s);
    }
    const atom = this.atom(s, env, errors);
    return atom ? atom.value : this.unknown(`expression ${s.slice(0, 120)}`, env.json?.path ?? '$');
  }

  /** A value together with its JSON path: `json['key']`, a bound variable, or a `readValue:` helper. */
  private located(expr: string, env: Env, errors: Set<string>): { value: unknown; path: string } {
    const s = expr.trim();
    if (s.startsWith('(') && matching(s, 0) === s.length - 1) return this.located(s.slice(1, -1), env, errors);
    const cast = splitTop(s, ' as ');
    if (cast.length >= 2) {
      const source = this.located(cast.slice(0, -1).join(' as '), env, errors);
      return { value: this.cast(source.value, cast[cast.length - 1], source.path), path: source.path };
    }
    return this.atom(s, env, errors) ?? { value: this.evaluate(s, env, errors), path: env.json?.path ?? '$' };
  }

  private atom(s: string, env: Env, errors: Set<string>): { value: unknown; path: string } | undefined {
    const key = /^(\w+)\['(\w+)'\]$/.exec(s);
    if (key && env[key[1]]) {
      const base = env[key[1]];
      return { value: (base.value as Record<string, unknown>)[key[2]], path: `${base.path}.${key[2]}` };
    }
    if (/^\w+$/.test(s) && env[s]) return env[s];
    const read = /^(\w+)\.(\w+)\(json,'(\w+)'\)$/.exec(s);
    if (read) {
      const json = env.json;
      const helper = this.readValue[`${read[1]}.${read[2]}`];
      if (!helper) return this.unknown(`readValue ${read[1]}.${read[2]}`, json.path);
      return helper(json.value as Record<string, unknown>, read[3], json.path, errors);
    }
    return undefined;
  }

  private cast(value: unknown, type: string, path: string): unknown {
    const nullable = type.endsWith('?');
    const base = nullable ? type.slice(0, -1) : type;
    if (value !== undefined) this.presentKeys.add(keyPattern(path));
    if (isNull(value)) {
      if (value === undefined) this.absentOptional.add(keyPattern(path));
      if (nullable || base === 'dynamic' || base === 'Object?') return null;
      throw new DecodeFailure(path, `required ${base}, got ${show(value)}`);
    }
    const t = jsonType(value);
    const ok: Record<string, boolean> = {
      String: t === 'string',
      bool: t === 'boolean',
      num: t === 'number',
      int: Number.isInteger(value),
      // Dart's jsonDecode makes 2 an int: `as double` throws unless the JSON has a fraction.
      double: t === 'number' && !Number.isInteger(value),
      Object: true,
      dynamic: true,
    };
    const kind = /^(List|Map)(<|$)/.exec(base)?.[1];
    const passes = kind ? t === (kind === 'List' ? 'list' : 'map') : ok[base];
    if (passes === undefined) return this.unknown(`cast as ${type}`, path);
    if (!passes) throw new DecodeFailure(path, `expected ${base}, got ${show(value)}`);
    return value;
  }

  private call(receiver: string, dot: string, method: string, args: string[], env: Env, errors: Set<string>, whole: string): unknown {
    const path = env.json?.path ?? '$';
    if (!receiver && (method === '$enumDecode' || method === '$enumDecodeNullable')) {
      const { value, path: at } = this.located(args[1], env, errors);
      if (isNull(value) && method === '$enumDecodeNullable') return null;
      return this.enumDecode(args[0], value, at, args.some((a) => a.startsWith('unknownValue:')));
    }
    if (receiver && ['toInt', 'toDouble', 'toList', 'toSet', 'toString'].includes(method)) {
      return this.evaluate(receiver, env, errors);
    }
    if (method === 'map' && receiver) {
      const { value: source, path: at } = this.located(receiver, env, errors);
      if (isNull(source) && dot === '?.') return null;
      const fn = /^\((\w+)(?:,(\w+))?\)=>(.*)$/.exec(args[0]);
      if (!fn) return this.unknown(`map callback ${args[0]}`, at);
      if (!fn[2]) {
        return (source as unknown[]).map((item, i) =>
          this.guard(errors, () => this.evaluate(fn[3], { ...env, [fn[1]]: { value: item, path: `${at}[${i}]` } }, errors)),
        );
      }
      const entry = /^MapEntry\((.*)\)$/.exec(fn[3]);
      if (!entry) return this.unknown(`map entry ${fn[3]}`, at);
      const [keyExpr, valueExpr] = splitTop(entry[1], ',');
      for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
        const sub = { ...env, [fn[1]]: { value: k, path: `${at}{key ${k}}` }, [fn[2]]: { value: v, path: `${at}.${k}` } };
        this.guard(errors, () => this.evaluate(keyExpr, sub, errors));
        this.guard(errors, () => this.evaluate(valueExpr, sub, errors));
      }
      return source;
    }
    if (receiver === 'int' && method === 'parse') {
      const { value, path: at } = this.located(args[0], env, errors);
      if (!/^-?\d+$/.test(String(value))) throw new DecodeFailure(at, `int.parse of ${show(value)}`);
      return Number(value);
    }
    if (receiver === 'Uri' && method === 'parse') return this.evaluate(args[0], env, errors);
    const converter = /^const (\w+)\(\)$/.exec(receiver);
    if (converter && method === 'fromJson') {
      const { value, path: at } = this.located(args[0], env, errors);
      if (converter[1] === 'NullableIntJsonConverter' || converter[1] === 'NullableStringJsonConverter') return value;
      // MessageTypeConverter.fromJson: 'private' is read as 'direct', then $enumDecode(_$MessageTypeEnumMap).
      if (converter[1] === 'MessageTypeConverter') return this.enumDecode('_$MessageTypeEnumMap', value === 'private' ? 'direct' : value, at, false);
      return this.unknown(`converter ${converter[1]}`, at);
    }
    if (/^[A-Z]\w*$/.test(receiver)) {
      if (method === 'fromJson' || method === 'tryParseFromJson') {
        const { value, path: at } = this.located(args[0], env, errors);
        return this.decodeClass(method === 'fromJson' ? receiver : `${receiver}.${method}`, value, at, errors);
      }
      if (method === 'fromApiValue') {
        const { value, path: at } = this.located(args[0], env, errors);
        if (receiver === 'TwentyFourHourTimeMode') return value; // a switch on true/false/null, after `as bool?`
        const spec = this.apiValueEnums.get(receiver);
        if (!spec) return this.unknown(`${receiver}.fromApiValue`, at);
        return this.enumDecode(spec.map, value, at, !spec.strict);
      }
      if (method === 'fromRawString') return this.evaluate(args[0], env, errors); // maps unknown strings to null/unknown
      const fn = this.fromJsonFunctions[`${receiver}.${method}`];
      if (fn) {
        const { value, path: at } = this.located(args[0], env, errors);
        return fn(value, at, errors);
      }
      if (/^_read/.test(method)) return this.located(whole, env, errors).value;
    }
    return this.unknown(`call ${whole.slice(0, 120)}`, path);
  }

  private enumDecode(mapName: string, value: unknown, path: string, hasUnknownValue: boolean): unknown {
    const values = this.enumMaps.get(mapName);
    if (!values) return this.unknown(`enum map ${mapName}`, path);
    // json_annotation's $enumDecode: null throws even with unknownValue; other values fall back to it.
    if (isNull(value)) throw new DecodeFailure(path, `required value of ${mapName}, got ${show(value)}`);
    if (!values.includes(value) && !hasUnknownValue) {
      throw new DecodeFailure(path, `${show(value)} is not in ${mapName} (${values.map((v) => JSON.stringify(v)).join(', ')})`);
    }
    return value;
  }

  /** Evaluates one case of a `_readValue` switch on `property` (UserSettingsUpdateEvent, ChannelUpdateEvent, SubscriptionUpdateEvent). */
  private propertyValue(cls: string, json: Record<string, unknown>, path: string, errors: Set<string>): { value: unknown; path: string } {
    const sw = this.propertySwitches.get(cls);
    if (!sw) return this.unknown(`${cls}._readValue`, path);
    const property = json.property;
    if (typeof property !== 'string') throw new DecodeFailure(`${path}.property`, `expected String, got ${show(property)}`);
    // fromRawString: the enum member whose JSON name (from `_$EnumMap`, snake_case) is the property.
    const src = this.enumMembers.get(`_$${sw.enumName}EnumMap`) ?? new Map<string, unknown>();
    const member = [...src.entries()].find(([, raw]) => raw === property)?.[0];
    const body = sw.cases.get(member ?? 'null') ?? sw.cases.get('unknown') ?? 'return null;';
    const at = `${path}.value`;
    const ret = /^return (.*);$/.exec(body);
    if (ret) return { value: this.evaluate(ret[1], { json: { value: json, path }, value: { value: json.value, path: at } }, errors), path: at };
    // SubscriptionProperty.color: `final str = value as String;` then an int.parse of its hex digits.
    if (/^final str = value as String;/.test(body) && body.includes("radix: 16") || body.includes('radix:16')) {
      if (typeof json.value !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(json.value)) throw new DecodeFailure(at, `expected a color "#rrggbb", got ${show(json.value)}`);
      return { value: json.value, path: at };
    }
    return this.unknown(`${cls}._readValue case ${member}: ${body}`, path);
  }


  /**
   * `@JsonKey(readValue: X._readY)` helpers: what each one reads instead of `json[key]`, transcribed
   * from the app's source (comments name the Dart code).
   */
  private readonly readValue: Record<string, (json: Record<string, unknown>, key: string, path: string, errors: Set<string>) => { value: unknown; path: string }> = {
    // initial_snapshot.dart: `(json[key] as List<dynamic>)`, each user `putIfAbsent('is_active', ...)`.
    'InitialSnapshot._readUsersIsActiveFallbackTrue': (json, key, path) => this.usersWithIsActive(json, key, path, true),
    'InitialSnapshot._readUsersIsActiveFallbackFalse': (json, key, path) => this.usersWithIsActive(json, key, path, false),
    // events.dart ChannelDeleteEvent: `stream_ids` (ints) or else `streams[].stream_id`.
    'ChannelDeleteEvent._readChannelIds': (json, _key, path) => {
      if (!isNull(json.stream_ids)) return { value: this.intList(json.stream_ids, `${path}.stream_ids`), path };
      const streams = this.cast(json.streams, 'List<dynamic>', `${path}.streams`) as unknown[];
      return { value: streams.map((c, i) => this.cast((this.cast(c, 'Map<String,dynamic>', `${path}.streams[${i}]`) as any).stream_id, 'int', `${path}.streams[${i}].stream_id`)), path };
    },
    // events.dart SubscriptionRemoveEvent: `subscriptions[].stream_id as int`.
    'SubscriptionRemoveEvent._readChannelIds': (json, _key, path) => {
      const subs = this.cast(json.subscriptions, 'List<dynamic>', `${path}.subscriptions`) as unknown[];
      return { value: subs.map((c, i) => this.cast((this.cast(c, 'Map<String,dynamic>', `${path}.subscriptions[${i}]`) as any).stream_id, 'int', `${path}.subscriptions[${i}].stream_id`)), path };
    },
    'UserSettingsUpdateEvent._readValue': (json, _key, path, errors) => this.propertyValue('UserSettingsUpdateEvent', json, path, errors),
    'ChannelUpdateEvent._readValue': (json, _key, path, errors) => this.propertyValue('ChannelUpdateEvent', json, path, errors),
    'SubscriptionUpdateEvent._readValue': (json, _key, path, errors) => this.propertyValue('SubscriptionUpdateEvent', json, path, errors),
    // model.dart Subscription._readColor: `json[key] as String`, then int.parse of the hex digits.
    'Subscription._readColor': (json, key, path) => {
      const at = `${path}.${key}`;
      if (typeof json[key] !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(json[key] as string)) throw new DecodeFailure(at, `expected a color "#rrggbb", got ${show(json[key])}`);
      return { value: parseInt((json[key] as string).slice(1), 16), path: at };
    },
    // model.dart Message._readPoll: Submessage.parseSubmessagesJson(`json['submessages'] as List<Object?>? ?? []`,
    // messageSenderId: `(json['sender_id'] as num).toInt()`); the Poll decoder below does the parse.
    'Message._readPoll': (json, _key, path) => {
      const submessages = this.cast(json.submessages, 'List<Object?>?', `${path}.submessages`) ?? [];
      const messageSenderId = this.cast(json.sender_id, 'num', `${path}.sender_id`);
      return { value: { submessages, messageSenderId }, path: `${path}.submessages` };
    },
    // model.dart MessageEditState._readFromMessage: `edit_history as List<dynamic>?`, `last_edit_timestamp as int?`,
    // then over the entries, until one has `prev_content`: skip one with `prev_stream`, else
    // `entry['prev_topic'] as String?` and, when present, `entry['topic'] as String`.
    'MessageEditState._readFromMessage': (json, _key, path) => {
      const history = this.cast(json.edit_history, 'List<dynamic>?', `${path}.edit_history`) as Record<string, unknown>[] | null;
      this.cast(json.last_edit_timestamp, 'int?', `${path}.last_edit_timestamp`);
      for (const [i, entry] of (history ?? []).entries()) {
        const at = `${path}.edit_history[${i}]`;
        if (jsonType(entry) !== 'map') throw new DecodeFailure(at, `expected an object, got ${show(entry)}`);
        if (!isNull(entry.prev_content)) break;
        if (!isNull(entry.prev_stream)) continue;
        if (!isNull(this.cast(entry.prev_topic, 'String?', `${at}.prev_topic`))) this.cast(entry.topic, 'String', `${at}.topic`);
      }
      return { value: '<MessageEditState>', path };
    },
    // model.dart StreamMessage._readConversation, events.dart _readMoveData/_readChange: the whole object.
    'StreamMessage._readConversation': (json, _key, path) => ({ value: json, path }),
    'UpdateMessageEvent._readMoveData': (json, _key, path) => ({ value: json, path }),
    'UserStatusEvent._readChange': (json, _key, path) => ({ value: json, path }),
    // events.dart MessageEvent._readMessageValue: `{...json['message'] as Map, 'flags': json['flags']}`.
    'MessageEvent._readMessageValue': (json, _key, path) => {
      const message = this.cast(json.message, 'Map<String,dynamic>', `${path}.message`) as Record<string, unknown>;
      return { value: { ...message, flags: json.flags }, path: `${path}.message` };
    },
    // events.dart RealmUserUpdateEvent: `(json['person'] as Map)[key]`, and JsonNullable.readFromJson on person.
    'RealmUserUpdateEvent._readFromPerson': (json, key, path) => {
      const person = this.cast(json.person, 'Map<String,dynamic>', `${path}.person`) as Record<string, unknown>;
      return { value: person[key], path: `${path}.person.${key}` };
    },
    'RealmUserUpdateEvent._readNullableStringFromPerson': (json, key, path) => {
      const person = this.cast(json.person, 'Map<String,dynamic>', `${path}.person`) as Record<string, unknown>;
      return { value: key in person ? this.cast(person[key], 'String?', `${path}.person.${key}`) : undefined, path: `${path}.person.${key}` };
    },
    'RealmUserUpdateEvent._readNullableIntFromPerson': (json, key, path) => {
      const person = this.cast(json.person, 'Map<String,dynamic>', `${path}.person`) as Record<string, unknown>;
      return { value: key in person ? this.cast(person[key], 'int?', `${path}.person.${key}`) : undefined, path: `${path}.person.${key}` };
    },
    // json.dart JsonNullable.readFromJson: `map.containsKey(key) ? JsonNullable(map[key] as T?) : null`.
    'JsonNullable.readIntFromJson': (json, key, path) => ({ value: key in json ? this.cast(json[key], 'int?', `${path}.${key}`) : undefined, path: `${path}.${key}` }),
    'JsonNullable.readStringFromJson': (json, key, path) => ({ value: key in json ? this.cast(json[key], 'String?', `${path}.${key}`) : undefined, path: `${path}.${key}` }),
    // events.dart TypingEvent._readSenderId: `(json['sender'] as Map)['user_id']`.
    'TypingEvent._readSenderId': (json, _key, path) => {
      const sender = this.cast(json.sender, 'Map<String,dynamic>', `${path}.sender`) as Record<string, unknown>;
      return { value: sender.user_id, path: `${path}.sender.user_id` };
    },
    // model.dart User._readProfileData: `json[key] as Map<String, dynamic>?`.
    'User._readProfileData': (json, key, path) => ({ value: this.cast(json[key], 'Map<String,dynamic>?', `${path}.${key}`), path: `${path}.${key}` }),
  };

  /** `@JsonKey(fromJson: X._y)` functions, transcribed from the app's source. */
  private readonly fromJsonFunctions: Record<string, (value: unknown, path: string, errors: Set<string>) => unknown> = {
    // route/messages.dart: `(json as List).map((e) => Message.fromJson(e as Map))`.
    'GetMessagesResult._messagesFromJson': (value, path, errors) =>
      (this.cast(value, 'List<dynamic>', path) as unknown[]).map((m, i) => this.guard(errors, () => this.decodeClass('Message', m, `${path}[${i}]`, errors))),
    // model.dart: `list.map((raw) => MessageFlag.fromRawString(raw as String))` (unknown flags become `unknown`).
    'Message._flagsFromJson': (value, path) => (this.cast(value, 'List<Object?>', path) as unknown[]).map((f, i) => this.cast(f, 'String', `${path}[${i}]`)),
    // model.dart: `(json as List<Object?>)`, then Reactions.fromJson when not empty.
    'Message._reactionsFromJson': (value, path, errors) => this.decodeClass('Reactions', this.cast(value, 'List<Object?>', path), path, errors),
    // model.dart: a no-op (`json as MessageEditState`) over what _readFromMessage returned.
    'Message._messageEditStateFromJson': (value) => value,
    // model.dart DmMessage._conversationFromJson: `json.map((element) => ((element as Map)['id'] as num).toInt())`.
    'DmMessage._conversationFromJson': (value, path) =>
      (this.cast(value, 'List<dynamic>', path) as unknown[]).map((item, i) => this.cast((this.cast(item, 'Map<String,dynamic>', `${path}[${i}]`) as any).id, 'num', `${path}[${i}].id`)),
    // events.dart: null, or `(json as List).map((item) => (item as Map)['user_id'] as int)`.
    'TypingEvent._recipientIdsFromJson': (value, path) =>
      isNull(value) ? null : (this.cast(value, 'List<Object?>', path) as unknown[]).map((item, i) => this.cast((this.cast(item, 'Map<String,Object?>', `${path}[${i}]`) as any).user_id, 'int', `${path}[${i}].user_id`)),
  };

  /** Hand-written `fromJson`s (not generated), transcribed from the app's source. */
  private readonly custom: Record<string, (value: unknown, path: string, errors: Set<string>) => unknown> = {
    // events.dart Event.fromJson: `switch (json['type'] as String)`, then `json['op'] as String` for grouped types.
    Event: (value, path, errors) => {
      const json = this.cast(value, 'Map<String,dynamic>', path) as Record<string, unknown>;
      this.cast(json.type, 'String', `${path}.type`);
      const entry = this.eventDispatch.get(json.type as string);
      if (entry && typeof entry !== 'string') this.cast(json.op, 'String', `${path}.op`);
      const cls = this.eventClass(json) ?? 'UnexpectedEvent';
      return this.decodeClass(cls, json, `${path}(${cls})`, errors);
    },
    // events.dart: `UnexpectedEvent.fromJson(this.json) : super(id: json['id'] as int)`.
    UnexpectedEvent: (value, path) => this.cast((value as Record<string, unknown>).id, 'int', `${path}.id`),
    // model.dart Message.fromJson: `json['type'] as String`; 'stream' or 'private', else throws.
    Message: (value, path, errors) => {
      const json = this.cast(value, 'Map<String,dynamic>', path) as Record<string, unknown>;
      const type = this.cast(json.type, 'String', `${path}.type`);
      if (type === 'stream') return this.decodeClass('StreamMessage', json, path, errors);
      if (type === 'private') return this.decodeClass('DmMessage', json, path, errors);
      throw new DecodeFailure(`${path}.type`, `Message.fromJson: unexpected message type ${show(type)}`);
    },
    // model.dart GroupSettingValue.fromJson: an int (a group id) or an object (GroupSettingValueNameless).
    GroupSettingValue: (value, path, errors) => {
      if (Number.isInteger(value)) return value;
      if (jsonType(value) === 'map') return this.decodeClass('GroupSettingValueNameless', value, path, errors);
      throw new DecodeFailure(path, `GroupSettingValue.fromJson: expected a group id or {direct_members, direct_subgroups}, got ${show(value)}`);
    },
    // model.dart UserStatusChange.fromJson: status_text, emoji_name, emoji_code, reaction_type `as String?`;
    // with all three emoji fields non-empty, ReactionType.fromApiValue(reaction_type) (strict: `_byApiValue[value]!`).
    UserStatusChange: (value, path) => {
      const json = this.cast(value, 'Map<String,dynamic>', path) as Record<string, unknown>;
      for (const key of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type']) this.cast(json[key], 'String?', `${path}.${key}`);
      if (json.emoji_name && json.emoji_code && json.reaction_type) {
        const spec = this.apiValueEnums.get('ReactionType');
        if (!spec) return this.unknown('ReactionType.fromApiValue', path);
        this.enumDecode(spec.map, json.reaction_type, `${path}.reaction_type`, !spec.strict);
      }
      return json;
    },
    // reaction.dart Reactions.fromJson: `json.map((r) => Reaction.fromJson(r as Map))`.
    Reactions: (value, path, errors) =>
      (value as unknown[]).map((r, i) => this.guard(errors, () => this.decodeClass('Reaction', this.cast(r, 'Map<String,dynamic>', `${path}[${i}]`), `${path}[${i}]`, errors))),
    // model.dart TopicName.fromJson(String): an extension type over the string (the caller already cast it).
    TopicName: (value) => value,
    // permission.dart DefaultGroupName.fromJson(String): unknown names become DefaultGroupNameUnknown.
    DefaultGroupName: (value) => value,
    // submessage.dart Poll.fromJson (a no-op cast) over what Submessage.parseSubmessagesJson made.
    Poll: (value, path, errors) => this.parseSubmessages(value as { submessages: unknown[]; messageSenderId: unknown }, path, errors),
    // events.dart UpdateMessageMoveData.tryParseFromJson.
    'UpdateMessageMoveData.tryParseFromJson': (value, path) => {
      const json = value as Record<string, unknown>;
      const origStreamId = this.cast(json.stream_id, 'num?', `${path}.stream_id`);
      const newStreamId = this.cast(json.new_stream_id, 'num?', `${path}.new_stream_id`) ?? origStreamId;
      const origTopic = this.cast(json.orig_subject, 'String?', `${path}.orig_subject`);
      const newTopic = this.cast(json.subject, 'String?', `${path}.subject`) ?? origTopic;
      const propagateMode = this.cast(json.propagate_mode, 'String?', `${path}.propagate_mode`);
      // model.dart PropagateMode.fromRawString: `_byRawString[raw]!` (flutter-app-model.ts anchors it).
      if (!isNull(propagateMode)) this.enumDecode('_$PropagateModeEnumMap', propagateMode, `${path}.propagate_mode`, false);
      if (newStreamId === origStreamId && newTopic === origTopic) {
        if (!isNull(propagateMode)) throw new DecodeFailure(path, 'propagate_mode present but no new channel or topic');
        return null;
      }
      for (const [name, v] of Object.entries({ stream_id: origStreamId, orig_subject: origTopic, propagate_mode: propagateMode })) {
        if (isNull(v)) throw new DecodeFailure(`${path}.${name}`, `required on a message move, got ${show(v)}`);
      }
      return json;
    },
  };

  /**
   * submessage.dart Submessage.parseSubmessagesJson: each entry `Submessage.fromJson(e as Map)`;
   * none: no poll. The first must be the message sender's (an assert: debug builds stop there),
   * its content `jsonDecode`d into WidgetData.fromJson (`map['widget_type'] as String`: `poll` is
   * PollWidgetData.fromJson, any other type an unsupported widget, no poll). Then Poll.fromSubmessages
   * decodes each later submessage's content as `jsonDecode(content) as Map` and
   * PollEventSubmessage.fromJson: `json['type'] as String`, PollEventSubmessageType.fromRawString
   * (`_byRawString[raw]!`: a type it does not know throws), then that class's fromJson.
   */
  private parseSubmessages({ submessages, messageSenderId }: { submessages: unknown[]; messageSenderId: unknown }, path: string, errors: Set<string>): unknown {
    const entries = submessages.map((e, i) => {
      const at = `${path}[${i}]`;
      const json = this.cast(e, 'Map<String,Object?>', at) as Record<string, unknown>;
      this.decodeClass('Submessage', json, at, errors);
      return { json, at };
    });
    if (entries.length === 0) return null;
    const jsonDecode = (content: unknown, at: string) => {
      try {
        return JSON.parse(String(content)) as unknown;
      } catch {
        throw new DecodeFailure(`${at}.content`, `jsonDecode of ${show(content)}`);
      }
    };
    const [first, ...events] = entries;
    if (first.json.sender_id !== messageSenderId) throw new DecodeFailure(`${first.at}.sender_id`, `parseSubmessagesJson asserts the first submessage is the message sender's (${show(messageSenderId)})`);
    const widget = this.cast(jsonDecode(first.json.content, first.at), 'Map<String,Object?>', `${first.at}.content`) as Record<string, unknown>;
    const widgetType = this.cast(widget.widget_type, 'String', `${first.at}.content.widget_type`);
    if (widgetType !== 'poll') return null;
    this.decodeClass('PollWidgetData', widget, `${first.at}.content`, errors);
    const eventClasses: Record<string, string> = { new_option: 'PollNewOptionEventSubmessage', question: 'PollQuestionEventSubmessage', vote: 'PollVoteEventSubmessage' };
    for (const { json, at } of events) {
      this.guard(errors, () => {
        const data = this.cast(jsonDecode(json.content, at), 'Map<String,Object?>', `${at}.content`) as Record<string, unknown>;
        const type = this.cast(data.type, 'String', `${at}.content.type`) as string;
        if (type === 'unknown') return;
        const cls = eventClasses[type];
        if (!cls) throw new DecodeFailure(`${at}.content.type`, `PollEventSubmessageType.fromRawString of ${show(type)} (null check)`);
        this.decodeClass(cls, data, `${at}.content`, errors);
      });
    }
    return null;
  }

  private usersWithIsActive(json: Record<string, unknown>, key: string, path: string, fallback: boolean) {
    const at = `${path}.${key}`;
    const list = this.cast(json[key], 'List<dynamic>', at) as unknown[];
    return {
      value: list.map((u, i) => ({ is_active: fallback, ...(this.cast(u, 'Map<String,dynamic>', `${at}[${i}]`) as object) })),
      path: at,
    };
  }

  private intList(value: unknown, path: string): number[] {
    return (this.cast(value, 'List<dynamic>', path) as unknown[]).map((v, i) => this.cast(v, 'int', `${path}[${i}]`) as number);
  }
}
