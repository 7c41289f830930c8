/**
 * S3, the long fuzz run: ≥ 50,000 generated requests across every /api/v1 route, through real HTTP
 * on loopback, against the embedded app in a temporary directory. Passes when no response is a
 * 5xx and every error is in Zulip's envelope with a code. (The short run, 2,000 requests, is
 * test/api/fuzz.api-spec.ts in CI.)
 *
 *   npm run reliability:fuzz                      # 50,000 requests, seed 20261121
 *   npm run reliability:fuzz -- --count 200000 --seed 7 --concurrency 8 --by-kind
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import { DeactivateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { ApiTestClient, checkFuzzResponse, type FuzzRequest, fuzzRequests, keepFuzzPersonasActive, mayHaveDeactivated, sendFuzzRequest } from '../support';
import { listApiRoutes } from '../../apps/api/src/openapi/api-routes';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};

async function main() {
  const count = arg('count', 50_000);
  const seed = arg('seed', 20261121);
  const concurrency = arg('concurrency', 4);
  const api = await ApiTestClient.start({ personas: ['iago', 'hamlet', 'cordelia', 'polonius'] });
  await api.app.get(CommandBus).execute(new DeactivateUserCommand({ actor: operatorActor(api.realmId) }, api.user('cordelia').userId));
  await api.app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${((api.app.getHttpServer() as Server).address() as AddressInfo).port}`;
  const agent = (method: string, path: string) => (request(base) as unknown as Record<string, (p: string) => request.Test>)[method.toLowerCase()](path);
  const credentials = { valid: api.user('hamlet'), valid2: api.user('iago'), deactivated: api.user('cordelia'), guest: api.user('polonius') };
  const routes = listApiRoutes(api.app);
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const kinds = new Map<string, number>();
  let sent = 0;
  const started = Date.now();
  const source = fuzzRequests(routes, count, seed);
  const worker = async () => {
    for (let next = source.next(); !next.done; next = source.next()) {
      const r: FuzzRequest = next.value;
      let failure: string | null;
      try {
        const response = await sendFuzzRequest(agent, r, credentials);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const kind = `${r.label.replace(/^.*: /, '')} / ${r.auth} → ${response.status}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        failure = checkFuzzResponse(r, response);
        if (mayHaveDeactivated(r, response)) await keepFuzzPersonasActive(api, ['hamlet', 'iago', 'polonius']);
      } catch (error) {
        failure = `${r.label}: ${r.method} ${r.path} → no response (${(error as Error).message})`;
      }
      if (failure && failures.length < 200) failures.push(failure);
      if (++sent % 5000 === 0) process.stderr.write(`  ${sent.toLocaleString('en')} / ${count.toLocaleString('en')} requests, ${failures.length} failures\n`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (Date.now() - started) / 1000;
  await api.close();
  const byStatus = Object.fromEntries([...statuses].sort(([a], [b]) => a - b));
  const fiveXx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  console.log(JSON.stringify({ requests: sent, routes: routes.length, seed, seconds: Math.round(seconds * 10) / 10, perSecond: Math.round(sent / seconds), byStatus, fiveXx, failures: failures.length }, null, 2));
  if (process.argv.includes('--by-kind')) for (const [kind, n] of [...kinds].sort()) console.log(`${String(n).padStart(7)}  ${kind}`);
  for (const failure of failures.slice(0, 50)) console.log(`FAIL ${failure}`);
  process.exit(failures.length === 0 && sent >= count ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
