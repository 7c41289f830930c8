import { isContentKeyMissing } from '@app/application';
import type { Logger } from 'pino';

/** EX_CONFIG (sysexits.h): the configuration (here: the data directory's files) is wrong, not the program. */
export const EXIT_CONFIGURATION_ERROR = 78;

/**
 * What a server process does when it cannot start: a data directory whose sealed message texts it
 * has no key for (ContentKeyMissingError, docs/deployment.md "The event log cannot be opened") is a
 * configuration error, logged at `fatal` with the file to restore and exit code 78; anything else is
 * printed with its stack, exit code 1. Both also go to stderr, whatever LOG_LEVEL says.
 */
export function bootFailure(error: unknown, logger?: Logger): { exitCode: number; message: string } {
  if (isContentKeyMissing(error)) {
    const message = `refusing to start: ${error.message}`;
    logger?.fatal({ err: error, keyId: error.keyId, reason: error.reason }, message);
    return { exitCode: EXIT_CONFIGURATION_ERROR, message };
  }
  logger?.fatal({ err: error }, 'could not start');
  return { exitCode: 1, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

/** bootFailure, then the line on stderr and the exit. */
export function exitOnBootFailure(error: unknown, logger?: Logger): never {
  const { exitCode, message } = bootFailure(error, logger);
  process.stderr.write(`fatal: ${message}\n`);
  logger?.flush();
  process.exit(exitCode);
}
