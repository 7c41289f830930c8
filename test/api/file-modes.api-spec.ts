import { chmodSync, mkdirSync, readdirSync, lstatSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { makeTempDir } from '@app/testing';
import { ApiTestClient, expectSuccess, runCli } from '../support';

/**
 * Issue 35 item 7: the data directory, its databases, the upload-signing key, uploads and
 * `export-events` files are for the server's own account only — directory 0700, files 0600 —
 * whatever the umask, and a data directory left readable by an older installation is tightened at
 * boot. Checked with a loose umask (022, as a default shell), so a mode that only the umask made
 * private would fail here.
 */
describe('file modes', () => {
  const dirs: ReturnType<typeof makeTempDir>[] = [];
  let previousUmask = 0;
  beforeAll(() => (previousUmask = process.umask(0o022)));
  afterAll(() => {
    process.umask(previousUmask);
    dirs.forEach((d) => d.remove());
  });

  const mode = (path: string) => lstatSync(path).mode & 0o777;
  /** Every entry under `root` (root included) whose mode is not owner-only, as "path: mode". */
  const loose = (root: string): string[] => {
    const found: string[] = [];
    const visit = (path: string) => {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) return;
      const want = stat.isDirectory() ? 0o700 : 0o600;
      if ((stat.mode & 0o777) !== want) found.push(`${relative(root, path) || '.'}: ${(stat.mode & 0o777).toString(8)}`);
      if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    };
    visit(root);
    return found;
  };

  /** Uploads a file and asks for its temporary URL, which creates the upload-signing key. */
  const useUploads = async (api: ApiTestClient) => {
    const { email, apiKey } = api.user('hamlet');
    const { url } = expectSuccess(await api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file', Buffer.from('secret plan'), 'plan.txt'));
    expectSuccess(await api.as('hamlet').get(`/api/v1${String(url)}`));
  };

  it('creates a new data directory, its databases, the upload-signing key and uploads owner-only', async () => {
    const api = await ApiTestClient.start({ personas: ['hamlet'] });
    try {
      await useUploads(api);
      const dataDir = api.app.get<AppConfig>(APP_CONFIG).dataDir;
      const files = readdirSync(dataDir);
      expect(files).toEqual(expect.arrayContaining(['events.sqlite', 'events.sqlite-wal']));
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, 'events.sqlite'))).toBe(0o600);
      expect(loose(dataDir)).toEqual([]);
      // The key is there (and owner-only, by the scan above).
      expect(JSON.stringify(readdirSync(dataDir, { recursive: true }))).toContain('upload-url-signing-key');
    } finally {
      await api.close();
    }
  });

  it('tightens at boot a data directory an older installation left readable by others', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const dataDir = join(dir.path, 'data');
    // A first server run, then everything made world-readable, as a default umask would have left it.
    const api = await ApiTestClient.start({ personas: ['hamlet'], config: { dataDir } });
    await useUploads(api);
    await api.close();
    mkdirSync(join(dataDir, 'stray-dir'));
    writeFileSync(join(dataDir, 'stray-dir', 'notes.txt'), 'x');
    const loosen = (path: string) => {
      const stat = lstatSync(path);
      chmodSync(path, stat.isDirectory() ? 0o755 : 0o644);
      if (stat.isDirectory()) for (const entry of readdirSync(path)) loosen(join(path, entry));
    };
    loosen(dataDir);
    expect(loose(dataDir).length).toBeGreaterThan(3);
    // The next start (here the CLI's, which opens the same adapters as the server) tightens it all.
    expect((await runCli(dataDir, ['list-users', '--json'])).out.join('\n')).toContain('hamlet@acme.test');
    expect(loose(dataDir)).toEqual([]);
  });

  it('writes export-events files owner-only, an existing file included', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const dataDir = join(dir.path, 'data');
    const api = await ApiTestClient.start({ personas: ['hamlet'], config: { dataDir } });
    await useUploads(api);
    await api.close();
    const out = join(dir.path, 'export.ndjson');
    writeFileSync(out, 'old export\n', { mode: 0o644 });
    await runCli(dataDir, ['export-events', '--out', out]);
    expect(mode(out)).toBe(0o600);
    expect(loose(`${out}.blobs`)).toEqual([]);
    expect(readdirSync(`${out}.blobs`).length).toBeGreaterThan(0);
  });
});
