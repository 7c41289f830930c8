import type { LoggerService } from '@nestjs/common';
import pino, { type Logger, type LoggerOptions } from 'pino';
import pinoPretty from 'pino-pretty';

export type { Logger } from 'pino';

export type LogFormat = 'auto' | 'json' | 'pretty';

/** auto: human-readable in development on a terminal; JSON lines everywhere else (files, pipes, production). */
export function usePrettyLogs(format: LogFormat, env: string, isTty = !!process.stdout.isTTY): boolean {
  return format === 'pretty' || (format === 'auto' && env === 'development' && isTty);
}

/**
 * Structured JSON logs (one object per line), or pino-pretty's readable lines (`pretty`, written
 * synchronously so they interleave in order with what the server prints). Credentials never reach
 * a log: the Authorization header, passwords and API keys are redacted wherever they appear.
 */
export function createLogger(level: string, name = 'team-chat', options: { pretty?: boolean } = {}): Logger {
  const settings: LoggerOptions = {
    name,
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.api_key', '*.apiKey', 'password', 'api_key', 'apiKey'],
      censor: '[redacted]',
    },
  };
  if (!options.pretty) return pino(settings);
  return pino(settings, pinoPretty({ sync: true, colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' }));
}

/** Nest's start-up chatter (modules initialised, every route mapped): debug, not the operator's first screen. */
const NEST_BOOTSTRAP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Routes Nest's own log lines into the same stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    if (context !== undefined && NEST_BOOTSTRAP_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) { this.logger.error({ context, trace }, String(message)); }
  warn(message: unknown, context?: string) { this.logger.warn({ context }, String(message)); }
  debug(message: unknown, context?: string) { this.logger.debug({ context }, String(message)); }
  verbose(message: unknown, context?: string) { this.logger.trace({ context }, String(message)); }
  fatal(message: unknown, context?: string) { this.logger.fatal({ context }, String(message)); }
}
