#!/usr/bin/env node
// npm run test:servers: the whole API suite, and the port contracts, against EventStoreDB, MongoDB
// and Redis (TEST_STORAGE=servers: every API test on its own stream namespace and MongoDB
// database; test/support/api-test-client.ts). Needs ESDB_URL, MONGODB_URI (a replica set) and
// REDIS_URL; without them it says so and succeeds, as the servers suites of `npm test` skip.
// docker/smoke.sh runs it against docker/docker-compose.yml. Extra arguments go to jest.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const missing = ['ESDB_URL', 'MONGODB_URI', 'REDIS_URL'].filter((name) => !process.env[name]);
if (missing.length > 0) {
  process.stdout.write(
    `test:servers skipped: ${missing.join(', ')} not set. Run against servers of your own, e.g.\n` +
      "  ESDB_URL='esdb://localhost:2113?tls=false' MONGODB_URI='mongodb://localhost:27017/?directConnection=true' REDIS_URL=redis://localhost:6379 npm run test:servers\n" +
      'or with Docker: docker/smoke.sh\n',
  );
  process.exit(0);
}
const jest = join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
const result = spawnSync(process.execPath, [jest, '--selectProjects', 'api', 'contract', '--', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_STORAGE: 'servers' },
});
process.exit(result.status ?? 1);
