/**
 * Issue 23: the CPU one request spends in the `@Params()` pipe (parse + class-validator), timed in
 * process over many calls, for a DTO without class-validator constraints (GET /users/me's) and one
 * with them. In-process and single-threaded, so it is far less noisy than a load from outside.
 *
 *   node dist/bench/params-pipe.js [--iterations 200000]
 */
import 'reflect-metadata';
import { ZulipParamsPipe } from '../apps/api/src/http/params/params.decorator';
import { RequestParams } from '../apps/api/src/http/params/request-params';
import { GetUsersDto } from '../apps/api/src/users/users.dto';
import { fmtNum, intArg, parseArgs, runMain } from './support';

async function main() {
  const args = parseArgs();
  const iterations = intArg(args, 'iterations', 200_000);
  const pipe = new ZulipParamsPipe();
  const run = (n: number) => {
    for (let i = 0; i < n; i++) pipe.transform(RequestParams.fromRequest({}, undefined), { type: 'custom', metatype: GetUsersDto });
  };
  run(20_000);
  const before = process.cpuUsage();
  run(iterations);
  const used = process.cpuUsage(before);
  process.stdout.write(`@Params() GetUsersDto (no constraints): ${fmtNum(((used.user + used.system) / iterations), 3)} µs CPU per call over ${iterations} calls\n`);
}

runMain(main);
