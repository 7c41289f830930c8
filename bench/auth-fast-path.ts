/**
 * Issue 35: the authentication step every authenticated request takes once its account is cached
 * (AuthenticationService.authenticateHttpBasicFromMemory), in process on the application: time
 * per call, median of the rounds. Run it on two builds alternately to compare them.
 *
 *   node dist/bench/auth-fast-path.js [--rounds 7] [--calls 300000]
 */
import 'reflect-metadata';
import { AuthenticationService } from '@app/application';
import { createBenchRealm, startApp } from './app-harness';
import { intArg, parseArgs, runMain, tempDir } from './support';

runMain(async () => {
  const args = parseArgs();
  const rounds = intArg(args, 'rounds', 7);
  const calls = intArg(args, 'calls', 300_000);
  const dir = tempDir('bench-auth-');
  const { app } = await startApp(dir.path);
  try {
    const { realmId, auth } = await createBenchRealm(app);
    const [email, key] = Buffer.from(auth.slice('Basic '.length), 'base64').toString().split(':');
    const authentication = app.get(AuthenticationService);
    await authentication.authenticateHttpBasic(realmId, email, key); // caches the account
    const perCall: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) {
        if (!authentication.authenticateHttpBasicFromMemory(realmId, email, key)) throw new Error('the account is not cached');
      }
      perCall.push(Number(process.hrtime.bigint() - started) / calls);
    }
    const median = [...perCall].sort((a, b) => a - b)[Math.floor((rounds - 1) / 2)];
    console.log(`authenticateHttpBasicFromMemory: ${Math.round(median)} ns per call (median of ${rounds} rounds of ${calls}: ${perCall.map(Math.round).join(', ')} ns)`);
  } finally {
    await app.close();
    dir.remove();
  }
});
