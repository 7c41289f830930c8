import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Structured JSON logs (one object per line). Credentials never reach a log: the Authorization
 * header, passwords and API keys are redacted wherever they appear.
 */
export function createLogger(level: string, name = 'team-chat'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.api_key', '*.apiKey', 'password', 'api_key', 'apiKey'],
      censor: '[redacted]',
    },
  });
}

/** Routes Nest's own log lines into the same JSON stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) { this.logger.info({ context }, String(message)); }
  error(message: unknown, trace?: string, context?: string) { this.logger.error({ context, trace }, String(message)); }
  warn(message: unknown, context?: string) { this.logger.warn({ context }, String(message)); }
  debug(message: unknown, context?: string) { this.logger.debug({ context }, String(message)); }
  verbose(message: unknown, context?: string) { this.logger.trace({ context }, String(message)); }
  fatal(message: unknown, context?: string) { this.logger.fatal({ context }, String(message)); }
}
