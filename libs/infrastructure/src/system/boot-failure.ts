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
export function bootFailure(error: unknown, logger?: Logger, phase: 'start' | 'run' = 'start'): { exitCode: number; message: string } {
  if (isContentKeyMissing(error)) {
    const message = `${phase === 'start' ? 'refusing to start' : 'stopping'}: ${error.message}`;
    logger?.fatal({ err: error, keyId: error.keyId, reason: error.reason }, message);
    return { exitCode: EXIT_CONFIGURATION_ERROR, message };
  }
  logger?.fatal({ err: error }, phase === 'start' ? 'could not start' : 'stopping on an error');
  return { exitCode: 1, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}

/**
 * bootFailure, then the line on stderr and the exit. `run`: a running process whose projector
 * stopped for good (a sealed event it has no key for reached it): it exits as it would at start,
 * rather than serve read models that no longer move.
 */
export function exitOnBootFailure(error: unknown, logger?: Logger, phase: 'start' | 'run' = 'start'): never {
  const { exitCode, message } = bootFailure(error, logger, phase);
  process.stderr.write(`fatal: ${message}\n`);
  logger?.flush();
  process.exit(exitCode);
}
