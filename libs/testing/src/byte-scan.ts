import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Scanning stored bytes for values that must not be there (API keys, passwords, password hashes,
 * erased texts): the proof of issue 35 (test/proof), the credential specs. Docs: docs/security.md
 * ("Proof").
 */

/** A value to look for, with a label that says what it is without printing it whole. */
export type Needle = { label: string; value: string };

/** Where a needle was found: which source (a file relative to its root, or a named text), which needle, in which form. */
export type ScanHit = { source: string; needle: string; form: string };

/** A named byte source: a file's contents, a captured log, an HTTP answer. */
export type ScanSource = { name: string; bytes: Buffer | string };

/** Every regular file under `dir`, recursively (symbolic links are listed as files, not followed). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return lstatSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const htmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * The base64 text that any occurrence of `value` inside a longer base64-encoded byte string
 * contains, for each of the three alignments it can start at (the first and last characters of
 * each depend on the neighbouring bytes, so they are cut off).
 */
function base64Cores(value: Buffer): [number, Buffer][] {
  const cores: [number, Buffer][] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), value]).toString('base64');
    // Characters wholly determined by `value`: skip the ones touched by the padding in front, and the last group.
    const start = Math.ceil((shift * 4) / 3);
    const end = Math.floor(((shift + value.length) * 4) / 3);
    const core = encoded.slice(start, end);
    if (core.length >= 8) cores.push([shift, Buffer.from(core, 'latin1')]);
  }
  return cores;
}

/**
 * The byte forms a stored or logged copy of `value` can take: UTF-8 as is, JSON-escaped (events,
 * documents and snapshots are JSON), HTML-escaped (rendered messages), URL-encoded (logged URLs),
 * UTF-16LE, and base64 of the UTF-8 at any alignment (HTTP Basic credentials, blobs, encoded
 * payloads). And, because SQLite cuts a long row into overflow pages (each starting with a 4-byte
 * pointer) and a copy can be cut anywhere, each half of the value in those forms as well: any one
 * cut leaves one half whole. Values shorter than 24 characters are not halved (a half of a short or
 * readable value, `desdemona-password`, matches by chance).
 */
export function needleForms(value: string): { form: string; bytes: Buffer }[] {
  const forms = new Map<string, Buffer>();
  const add = (form: string, text: string, encoding: BufferEncoding = 'utf8') => {
    const bytes = Buffer.from(text, encoding);
    if (![...forms.values()].some((b) => b.equals(bytes))) forms.set(form, bytes);
  };
  const parts: [string, string][] = [['', value]];
  if (value.length >= 24) {
    const middle = Math.floor(value.length / 2);
    parts.push([' (first half)', value.slice(0, middle)], [' (second half)', value.slice(middle)]);
  }
  for (const [suffix, part] of parts) {
    add(`utf8${suffix}`, part);
    add(`json${suffix}`, JSON.stringify(part).slice(1, -1));
    add(`html${suffix}`, htmlEscape(part));
    add(`url${suffix}`, encodeURIComponent(part));
    add(`utf16le${suffix}`, part, 'utf16le');
    for (const [shift, core] of base64Cores(Buffer.from(part, 'utf8'))) add(`base64@${shift}${suffix}`, core.toString('latin1'), 'latin1');
  }
  return [...forms].map(([form, bytes]) => ({ form, bytes }));
}

/** Every needle found in every source, in any of its forms (one hit per source and needle: the first form found, whole forms first). */
export function scanSources(sources: ScanSource[], needles: Needle[]): ScanHit[] {
  const prepared = needles.map((n) => ({ label: n.label, forms: needleForms(n.value) }));
  const hits: ScanHit[] = [];
  for (const source of sources) {
    const bytes = typeof source.bytes === 'string' ? Buffer.from(source.bytes, 'utf8') : source.bytes;
    for (const needle of prepared) {
      const form = needle.forms.find((f) => bytes.includes(f.bytes))?.form;
      if (form !== undefined) hits.push({ source: source.name, needle: needle.label, form });
    }
  }
  return hits;
}

/** Every file under `root` as a scan source named by its path relative to `root` (prefixed with `label/` when given). */
export function fileSources(root: string, label?: string): ScanSource[] {
  return filesUnder(root).map((path) => ({ name: label === undefined ? relative(root, path) : `${label}/${relative(root, path)}`, bytes: readFileSync(path) }));
}

/** Every needle found in any file under `root`, read as raw bytes. */
export function scanFiles(root: string, needles: Needle[]): ScanHit[] {
  return scanSources(fileSources(root), needles);
}

/** Needles from plain values, labelled by `kind` and the value's first characters (enough to tell which, not enough to use). */
export function needlesOf(kind: string, values: Iterable<string>): Needle[] {
  return [...new Set(values)].map((value) => ({ label: `${kind} ${value.slice(0, 6)}…`, value }));
}
