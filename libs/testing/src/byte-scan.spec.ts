import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesUnder, needleForms, scanFiles, scanSources } from './byte-scan';
import { makeTempDir } from './temp-dir';

describe('byte scan', () => {
  const secret = 'k3y-Of-32-characters-abcdefghijk';
  const needle = [{ label: 'the key', value: secret }];
  const found = (bytes: Buffer | string) => scanSources([{ name: 'x', bytes }], needle).map((h) => h.form);

  it('finds a value as UTF-8 inside other bytes', () => {
    expect(found(Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(secret), Buffer.from([255])]))).toContain('utf8');
  });

  it('finds it JSON-escaped, HTML-escaped, URL-encoded and in UTF-16', () => {
    const odd = [{ label: 'odd', value: 'Ophelia\'s "plan" <b> & ünïcode\n' }];
    const hitsIn = (text: string | Buffer) => scanSources([{ name: 'x', bytes: text }], odd).map((h) => h.form);
    expect(hitsIn(JSON.stringify({ content: odd[0].value }))).toContain('json');
    expect(hitsIn(`<p>${odd[0].value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')}</p>`)).toContain('html');
    expect(hitsIn(`/x?q=${encodeURIComponent(odd[0].value)}&y=1`)).toContain('url');
    expect(hitsIn(Buffer.from(`..${odd[0].value}..`, 'utf16le'))).toContain('utf16le');
  });

  it('finds it base64-encoded inside a longer value, at each of the three alignments', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'hamlet@acme.test:']) {
      const encoded = Buffer.from(`${prefix}${secret}tail`).toString('base64');
      expect({ prefix, hit: found(`Basic ${encoded}`).some((f) => f.startsWith('base64@')) }).toEqual({ prefix, hit: true });
    }
  });

  it('finds it cut in two by a page boundary (one half is whole)', () => {
    for (const cut of [1, 8, 16, 25, 31]) {
      const stored = Buffer.concat([Buffer.from(secret.slice(0, cut)), Buffer.from([0, 0, 0, 7]), Buffer.from(secret.slice(cut))]);
      expect({ cut, hit: found(stored).length > 0 }).toEqual({ cut, hit: true });
    }
  });

  it('finds nothing where the value is not, nor a half of it', () => {
    expect(found(`${secret.slice(0, 10)} ${secret.slice(-10)} ${Buffer.from('unrelated').toString('base64')}`)).toEqual([]);
    expect(needleForms('short').map((f) => f.form)).not.toContain('utf8 (first half)');
  });

  it('reads every file under a directory, nested ones included', () => {
    const dir = makeTempDir('byte-scan-');
    try {
      mkdirSync(join(dir.path, 'a', 'b'), { recursive: true });
      writeFileSync(join(dir.path, 'top.txt'), 'nothing here');
      writeFileSync(join(dir.path, 'a', 'b', 'deep.bin'), Buffer.concat([Buffer.from([9, 9]), Buffer.from(JSON.stringify({ k: secret }))]));
      expect(filesUnder(dir.path).map((f) => f.slice(dir.path.length + 1)).sort()).toEqual(['a/b/deep.bin', 'top.txt']);
      expect(scanFiles(dir.path, needle)).toEqual([{ source: 'a/b/deep.bin', needle: 'the key', form: 'utf8' }]);
    } finally {
      dir.remove();
    }
  });
});
