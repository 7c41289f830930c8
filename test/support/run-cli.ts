import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import type { ClockPort } from '@app/application';
import { testConfig } from '@app/testing';
import { CliModule } from '../../apps/cli/src/cli.module';
import { buildProgram } from '../../apps/cli/src/commands';

/**
 * Runs one CLI command against a data directory as `team-chat <argv>` would, each command in an
 * application context of its own (as each CLI invocation is its own process); for specs. `logger`
 * receives what the command's process logs (quiet without one); `clock`, the time it runs at (a
 * spec's clock moved ahead, e.g. for the retention job).
 */
export async function runCli(dataDir: string, argv: string[], options: { logger?: Logger; clock?: ClockPort } = {}): Promise<{ out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const program = buildProgram(async (fn) => {
    const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config: testConfig(dataDir), logger: options.logger, ...(options.clock ? { clock: options.clock } : {}) }), { logger: false });
    await app.init();
    try {
      return await fn(app);
    } finally {
      await app.close();
    }
  }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  await program.parseAsync(['node', 'cli', ...argv]);
  return { out, err };
}
