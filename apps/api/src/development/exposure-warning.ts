/**
 * A development server hands out any account's API key without a password (dev_fetch_api_key) and
 * prints every key at first start: fine on loopback, dangerous on a network. The warning main.ts
 * prints, loudly, when a development server listens beyond loopback (issue 35); null otherwise.
 */
export function developmentExposureWarning(config: { env: string; host: string; port: number }): string | null {
  if (config.env !== 'development' || isLoopback(config.host)) return null;
  const line = '!'.repeat(78);
  return [
    line,
    `!! WARNING: a DEVELOPMENT server is listening on ${config.host}:${config.port}, beyond loopback.`,
    '!! Anyone who reaches it can log in as any account without a password',
    '!! (POST /api/v1/dev_fetch_api_key). Set NODE_ENV=production for a server others can reach,',
    '!! or HOST=127.0.0.1 to keep this one to this machine.',
    line,
  ].join('\n');
}

/** 127.0.0.0/8, ::1 and localhost; `0.0.0.0`, `::` and every other address are beyond loopback. */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}
