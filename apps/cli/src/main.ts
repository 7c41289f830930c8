import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { CommanderError } from 'commander';
import { ConfigurationError, loadConfig } from '@app/config';
import { createLogger, EXIT_CONFIGURATION_ERROR, PinoNestLogger } from '@app/infrastructure';
import { DomainError } from '@app/domain';
import { ImportError, isContentKeyMissing } from '@app/application';
import { CliModule } from './cli.module';
import { buildProgram } from './commands';

const output = {
  out: (line: string) => process.stdout.write(line + '\n'),
  err: (line: string) => process.stderr.write(line + '\n'),
  progress: process.stderr.isTTY ? process.stderr : undefined,
};

async function main(argv: string[]): Promise<number> {
  // Exports and whatever the CLI creates in the data directory are for this account only (docs/security.md).
  process.umask(0o077);
  const config = loadConfig();
  // The CLI logs only warnings: its output is for the operator.
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'team-chat-cli');
  const program = buildProgram(async (fn) => {
    // abortOnError off: an error while the modules are created reaches the handler below (Nest would exit 1 itself).
    const app = await NestFactory.createApplicationContext(CliModule.forRoot({ config, logger }), { logger: new PinoNestLogger(logger), abortOnError: false });
    await app.init();
    try {
      return await fn(app);
    } finally {
      await app.close();
    }
  }, output);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    // A log whose sealed texts have no key here (a command that replays it): the file to restore (docs/deployment.md).
    if (isContentKeyMissing(error)) {
      output.err(`error: ${error.message}`);
      return EXIT_CONFIGURATION_ERROR;
    }
    if (error instanceof DomainError || error instanceof ConfigurationError || error instanceof ImportError) {
      output.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

main(process.argv).then(
  (code) => process.exit(code),
  (error) => {
    output.err(`fatal: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(2);
  },
);
