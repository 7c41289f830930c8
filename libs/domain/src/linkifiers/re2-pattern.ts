/**
 * Linkifier patterns are written in re2's syntax (Zulip compiles them with re2): this reads that
 * syntax, rejects what re2 rejects with re2's error texts ("missing ): (foo", "bad repetition
 * operator: ????", "invalid perl operator: (?=", …), and writes the same pattern as a JavaScript
 * source that V8's linear-time engine accepts (no `u` or `i` flag: Unicode classes and case
 * folding are spelled out as ranges of UTF-16 code units, Basic Multilingual Plane only).
 */

/** A re2 parse error: `message` is re2's text ("missing ): (foo"); the API says "Bad regular expression: …". */
export class Re2SyntaxError extends Error {
  constructor(code: string, arg = '') {
    super(arg === '' ? code : `${code}: ${arg}`);
  }
}

export type TranslatedPattern = {
  /** JavaScript RegExp source (no flags needed). */
  source: string;
  /** Named groups, in order of appearance (re2's groupindex keys). */
  groupNames: string[];
  /** Literal strings every match contains (a cheap prefilter: a text without one of them has no match). */
  requiredLiterals: string[];
};

type Flags = { i: boolean; s: boolean; m: boolean; U: boolean };
type Range = [number, number];

const hex4 = (cu: number) => `\\u${cu.toString(16).padStart(4, '0')}`;
const MAX_REPEAT = 1000;

/** Names our own wrapper uses (Zulip's prepare_linkifier_pattern); a pattern may not reuse them. */
export const RESERVED_GROUP_NAMES = new Set(['linkifier_before_match', 'linkifier_actual_match', 'linkifier_after_match']);

const propertyCache = new Map<string, Range[]>();

/** The BMP code units with a Unicode property (general category or script), as ranges. */
export function propertyRanges(name: string): Range[] | undefined {
  const cached = propertyCache.get(name);
  if (cached) return cached;
  let test: RegExp | undefined;
  if (name === 'Any') test = /[\s\S]/u;
  else {
    for (const source of [`\\p{${name}}`, `\\p{Script=${name}}`]) {
      try {
        test = new RegExp(source, 'u');
        break;
      } catch {
        // not this kind of property
      }
    }
  }
  if (!test) return undefined;
  const ranges: Range[] = [];
  let start = -1;
  for (let cu = 0; cu <= 0x10000; cu++) {
    const inside = cu < 0x10000 && (cu < 0xd800 || cu > 0xdfff) && test.test(String.fromCharCode(cu));
    if (inside && start < 0) start = cu;
    if (!inside && start >= 0) {
      ranges.push([start, cu - 1]);
      start = -1;
    }
  }
  propertyCache.set(name, ranges);
  return ranges;
}

const complement = (ranges: Range[]): Range[] => {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0xffff) out.push([next, 0xffff]);
  return out;
};

const rangesSource = (ranges: Range[]) => ranges.map(([lo, hi]) => (lo === hi ? hex4(lo) : `${hex4(lo)}-${hex4(hi)}`)).join('');

const POSIX: Record<string, Range[]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};
const PERL: Record<string, Range[]> = { d: POSIX.digit, w: POSIX.word, s: [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]] };

/** Case variants of the code units of a range (ASCII letters fully; other small ranges unit by unit). */
function caseVariants([lo, hi]: Range): Range[] {
  const out: Range[] = [];
  const overlap = (a: number, b: number, shift: number) => {
    const from = Math.max(lo, a);
    const to = Math.min(hi, b);
    if (from <= to) out.push([from + shift, to + shift]);
  };
  overlap(0x61, 0x7a, -32);
  overlap(0x41, 0x5a, 32);
  if (hi >= 0x80 && hi - Math.max(lo, 0x80) < 512) {
    for (let cu = Math.max(lo, 0x80); cu <= hi; cu++) {
      for (const variant of [String.fromCharCode(cu).toLowerCase(), String.fromCharCode(cu).toUpperCase()]) {
        if (variant.length === 1 && variant.charCodeAt(0) !== cu) out.push([variant.charCodeAt(0), variant.charCodeAt(0)]);
      }
    }
  }
  return out;
}

class Translator {
  private i = 0;
  private readonly out: string[] = [];
  private readonly groupNames: string[] = [];
  private flags: Flags = { i: false, s: false, m: false, U: false };
  /** Literal runs outside any group, alternation or optional repetition: every match contains them. */
  private readonly runs: string[] = [];
  private run = '';
  private depth = 0;
  private topLevelAlternation = false;
  private lastWasTopLiteral = false;

  private flushRun(): void {
    if (this.run !== '') this.runs.push(this.run);
    this.run = '';
    this.lastWasTopLiteral = false;
  }

  /** A repetition follows the last atom: a literal that may now be absent leaves the run. */
  private repeated(min: number): void {
    if (this.lastWasTopLiteral && min === 0) this.run = this.run.slice(0, -1);
    this.flushRun();
  }

  constructor(private readonly p: string) {}

  translate(): TranslatedPattern {
    const { p } = this;
    const stack: { flags: Flags }[] = [];
    let canRepeat = false;
    let lastRepeat = -1;
    while (this.i < p.length) {
      const c = p[this.i];
      const start = this.i;
      if (c === '(') {
        this.flushRun();
        const opened = this.group();
        if (opened === 'flags') {
          canRepeat = false;
          lastRepeat = -1;
          continue;
        }
        stack.push({ flags: opened });
        this.depth = stack.length;
        canRepeat = false;
        lastRepeat = -1;
      } else if (c === ')') {
        const top = stack.pop();
        if (!top) throw new Re2SyntaxError('unexpected )', p);
        this.flags = top.flags;
        this.depth = stack.length;
        this.flushRun();
        this.out.push(')');
        this.i++;
        canRepeat = true;
        lastRepeat = -1;
      } else if (c === '|') {
        if (this.depth === 0) this.topLevelAlternation = true;
        this.flushRun();
        this.out.push('|');
        this.i++;
        canRepeat = false;
        lastRepeat = -1;
      } else if (c === '*' || c === '+' || c === '?' || (c === '{' && /^\{\d+(,\d*)?\}/.test(p.slice(this.i)))) {
        let op: string;
        if (c === '{') {
          const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(this.i))!;
          op = m[0];
          const min = Number(m[1]);
          const max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
          this.i += op.length;
          const lazy = p[this.i] === '?';
          if (lazy) this.i++;
          if (lastRepeat >= 0) throw new Re2SyntaxError('bad repetition operator', p.slice(lastRepeat, this.i));
          if (!canRepeat) throw new Re2SyntaxError('no argument for repetition operator', p.slice(start, this.i));
          if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && max < min)) throw new Re2SyntaxError('invalid repetition size', op);
          this.repeated(min);
          this.out.push(op + (lazy !== this.flags.U ? '?' : ''));
        } else {
          this.i++;
          const lazy = p[this.i] === '?';
          if (lazy) this.i++;
          if (lastRepeat >= 0) throw new Re2SyntaxError('bad repetition operator', p.slice(lastRepeat, this.i));
          if (!canRepeat) throw new Re2SyntaxError('no argument for repetition operator', p.slice(start, this.i));
          this.repeated(c === '+' ? 1 : 0);
          this.out.push(c + (lazy !== this.flags.U ? '?' : ''));
        }
        lastRepeat = start;
      } else {
        this.lastWasTopLiteral = false;
        canRepeat = this.atom();
        lastRepeat = -1;
      }
    }
    if (stack.length > 0) throw new Re2SyntaxError('missing )', p);
    this.flushRun();
    return { source: this.out.join(''), groupNames: this.groupNames, requiredLiterals: this.topLevelAlternation ? [] : this.runs };
  }

  /** `(` at this.i: a group (returns the flags to restore at its `)`), or a flag setting. */
  private group(): Flags | 'flags' {
    const { p } = this;
    const rest = p.slice(this.i);
    const outer = { ...this.flags };
    if (!rest.startsWith('(?')) {
      this.out.push('(');
      this.i++;
      return outer;
    }
    if (/^\(\?[=!]/.test(rest)) throw new Re2SyntaxError('invalid perl operator', rest.slice(0, 3));
    if (/^\(\?<[=!]/.test(rest)) throw new Re2SyntaxError('invalid perl operator', rest.slice(0, 4));
    if (rest.startsWith('(?P<') || rest.startsWith('(?<')) {
      const begin = rest[2] === 'P' ? 4 : 3;
      const end = rest.indexOf('>', 2);
      if (end < 0) throw new Re2SyntaxError('invalid named capture group', rest);
      const capture = rest.slice(0, end + 1);
      const name = rest.slice(begin, end);
      if (!/^\w+$/.test(name) || this.groupNames.includes(name) || RESERVED_GROUP_NAMES.has(name)) {
        throw new Re2SyntaxError('invalid named capture group', capture);
      }
      this.groupNames.push(name);
      this.out.push(`(?<${name}>`);
      this.i += capture.length;
      return outer;
    }
    if (rest.startsWith('(?P')) throw new Re2SyntaxError('invalid named capture group', rest);
    // Flags: (?flags) or (?flags:re)
    let j = 2;
    let negated = false;
    let sawFlag = false;
    const flags = { ...this.flags };
    for (;;) {
      const c = rest[j];
      if (c === undefined) throw new Re2SyntaxError('missing )', p);
      j++;
      if (c === 'i' || c === 's' || c === 'm' || c === 'U') {
        flags[c] = !negated;
        sawFlag = true;
      } else if (c === '-') {
        if (negated) throw new Re2SyntaxError('invalid perl operator', rest.slice(0, j));
        negated = true;
        sawFlag = false;
      } else if (c === ':' || c === ')') {
        if (negated && !sawFlag) throw new Re2SyntaxError('invalid perl operator', rest.slice(0, j));
        this.i += j;
        if (c === ')') {
          this.flags = flags;
          return 'flags';
        }
        this.flags = flags;
        this.out.push('(?:');
        return outer;
      } else {
        throw new Re2SyntaxError('invalid perl operator', rest.slice(0, j));
      }
    }
  }

  /** One atom at this.i; returns whether a repetition may follow it. */
  private atom(): boolean {
    const { p } = this;
    const c = p[this.i];
    if (c !== '\\') this.flushRunUnlessLiteral(c);
    if (c === '[') {
      this.out.push(this.characterClass());
      return true;
    }
    if (c === '\\') return this.escape();
    if (c === '.') {
      this.i++;
      this.out.push(this.flags.s ? '[\\s\\S]' : '[^\\n]');
      return true;
    }
    if (c === '^' || c === '$') {
      if (this.flags.m) throw new Re2SyntaxError('multi-line ^ and $ are not supported in linkifiers', c);
      this.i++;
      this.out.push(c);
      return false;
    }
    const cp = p.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    this.literal(cp);
    return true;
  }

  private flushRunUnlessLiteral(c: string): void {
    if (c === '[' || c === '.' || c === '^' || c === '$') this.flushRun();
  }

  private literal(cp: number): void {
    if (this.depth === 0 && !this.flags.i && cp <= 0xffff) {
      this.run += String.fromCharCode(cp);
      this.lastWasTopLiteral = true;
    } else {
      this.flushRun();
    }
    if (cp > 0xffff) {
      this.out.push(`(?:${String.fromCodePoint(cp).split('').map((u) => hex4(u.charCodeAt(0))).join('')})`);
      return;
    }
    const variants = this.flags.i ? caseVariants([cp, cp]) : [];
    this.out.push(variants.length > 0 ? `[${rangesSource([[cp, cp], ...variants])}]` : hex4(cp));
  }

  /** An escape at this.i, outside a class. */
  private escape(): boolean {
    const { p } = this;
    const start = this.i;
    const c = p[this.i + 1];
    if (c === undefined) throw new Re2SyntaxError('trailing \\');
    const simple: Record<string, string> = {
      d: '\\d', D: '\\D', w: '\\w', W: '\\W', s: '[\\t\\n\\f\\r ]', S: '[^\\t\\n\\f\\r ]', b: '\\b', B: '\\B', A: '^', z: '$', C: '[\\s\\S]',
    };
    if (c in simple) {
      this.flushRun();
      this.i += 2;
      if ((c === 'A' || c === 'z') && this.flags.m) throw new Re2SyntaxError('multi-line ^ and $ are not supported in linkifiers', `\\${c}`);
      this.out.push(simple[c]);
      return !'bBAz'.includes(c);
    }
    if (c === 'Q') {
      const end = p.indexOf('\\E', this.i + 2);
      const text = p.slice(this.i + 2, end < 0 ? p.length : end);
      this.i = end < 0 ? p.length : end + 2;
      for (const ch of text) this.literal(ch.codePointAt(0)!);
      return text.length > 0;
    }
    if (c === 'p' || c === 'P') {
      this.flushRun();
      const ranges = this.property();
      this.out.push(`[${rangesSource(ranges)}]`);
      return true;
    }
    const cu = this.escapedChar(start);
    this.literal(cu);
    return true;
  }

  /** `\pX`, `\p{Name}`, `\p{^Name}`, `\PX` at this.i: the code-unit ranges it stands for. */
  private property(): Range[] {
    const { p } = this;
    const start = this.i;
    let negated = p[this.i + 1] === 'P';
    let name: string;
    if (p[this.i + 2] === '{') {
      const end = p.indexOf('}', this.i + 3);
      if (end < 0) throw new Re2SyntaxError('invalid character class range', p.slice(start));
      name = p.slice(this.i + 3, end);
      this.i = end + 1;
    } else {
      if (p[this.i + 2] === undefined) throw new Re2SyntaxError('invalid character class range', p.slice(start));
      name = p[this.i + 2];
      this.i += 3;
    }
    if (name.startsWith('^')) {
      negated = !negated;
      name = name.slice(1);
    }
    const ranges = /^\w+$/.test(name) ? propertyRanges(name) : undefined;
    if (!ranges) throw new Re2SyntaxError('invalid character class range', p.slice(start, this.i));
    return negated ? complement(ranges) : ranges;
  }

  /** A single-character escape at `start` (\n, \x41, \x{263a}, \0, \., …); advances past it. */
  private escapedChar(start: number): number {
    const { p } = this;
    const c = p[start + 1];
    const controls: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
    if (c in controls) {
      this.i = start + 2;
      return controls[c];
    }
    if (c >= '0' && c <= '7') {
      // re2: \1-\7 alone would be a backreference (unsupported); with more octal digits, octal.
      if (c !== '0' && !(p[start + 2] >= '0' && p[start + 2] <= '7')) throw new Re2SyntaxError('invalid escape sequence', p.slice(start, start + 2));
      const m = /^[0-7]{1,3}/.exec(p.slice(start + 1))!;
      this.i = start + 1 + m[0].length;
      return parseInt(m[0], 8);
    }
    if (c === 'x') {
      const braced = /^\{([0-9A-Fa-f]+)\}/.exec(p.slice(start + 2));
      const plain = /^[0-9A-Fa-f]{2}/.exec(p.slice(start + 2));
      const digits = braced ? braced[1] : plain?.[0];
      const value = digits === undefined ? NaN : parseInt(digits, 16);
      if (Number.isNaN(value) || value > 0x10ffff) throw new Re2SyntaxError('invalid escape sequence', p.slice(start, start + 2 + (braced?.[0].length ?? 0)));
      if (value > 0xffff) throw new Re2SyntaxError('invalid escape sequence', p.slice(start, start + 2 + (braced?.[0].length ?? 0)));
      this.i = start + 2 + (braced ? braced[0].length : 2);
      return value;
    }
    const cp = p.codePointAt(start + 1)!;
    if (cp < 0x80 && !/[A-Za-z0-9]/.test(c)) {
      this.i = start + 2;
      return cp;
    }
    throw new Re2SyntaxError('invalid escape sequence', p.slice(start, start + 1 + String.fromCodePoint(cp).length));
  }

  /** `[…]` at this.i. */
  private characterClass(): string {
    const { p } = this;
    const classStart = this.i;
    this.i++;
    let negated = false;
    if (p[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const ranges: Range[] = [];
    let first = true;
    for (;;) {
      if (this.i >= p.length) throw new Re2SyntaxError('missing ]', p.slice(classStart));
      const c = p[this.i];
      if (c === ']' && !first) {
        this.i++;
        break;
      }
      first = false;
      const posix = /^\[:(\^)?([a-z]+):\]/.exec(p.slice(this.i));
      if (posix) {
        const set = POSIX[posix[2]];
        if (!set) throw new Re2SyntaxError('invalid character class range', posix[0]);
        ranges.push(...(posix[1] ? complement(set) : set));
        this.i += posix[0].length;
        continue;
      }
      if (c === '\\' && /[dDwWsSpP]/.test(p[this.i + 1] ?? '')) {
        const kind = p[this.i + 1];
        if (kind === 'p' || kind === 'P') ranges.push(...this.property());
        else {
          const set = PERL[kind.toLowerCase()];
          ranges.push(...(kind === kind.toUpperCase() ? complement(set) : set));
          this.i += 2;
        }
        continue;
      }
      const loStart = this.i;
      const lo = this.classChar();
      if (p[this.i] === '-' && p[this.i + 1] !== undefined && p[this.i + 1] !== ']') {
        this.i++;
        const hi = this.classChar();
        if (hi < lo) throw new Re2SyntaxError('invalid character class range', p.slice(loStart, this.i));
        ranges.push([lo, hi]);
      } else {
        ranges.push([lo, lo]);
      }
    }
    const all = this.flags.i ? [...ranges, ...ranges.flatMap(caseVariants)] : ranges;
    if (all.length === 0) return negated ? '[\\s\\S]' : '[^\\s\\S]';
    return `[${negated ? '^' : ''}${rangesSource(all)}]`;
  }

  /** One character inside a class (a literal or a single-character escape). */
  private classChar(): number {
    const { p } = this;
    if (p[this.i] === '\\') {
      if (p[this.i + 1] === undefined) throw new Re2SyntaxError('missing ]', p);
      if (p[this.i + 1] === 'b') {
        this.i += 2;
        return 8;
      }
      return this.escapedChar(this.i);
    }
    const cp = p.codePointAt(this.i)!;
    if (cp > 0xffff) throw new Re2SyntaxError('characters beyond U+FFFF are not supported in a character class here', String.fromCodePoint(cp));
    this.i++;
    return cp;
  }
}

/** Reads a re2 pattern; throws Re2SyntaxError with re2's message when re2 would reject it. */
export const translateRe2Pattern = (pattern: string): TranslatedPattern => new Translator(pattern).translate();
