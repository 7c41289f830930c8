import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value);
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1' || value === true) return true;
  if (value === 'false' || value === '0' || value === false) return false;
  return value;
};

export const DRIVERS = ['embedded', 'servers'] as const;
export type Driver = (typeof DRIVERS)[number];

/**
 * Every environment variable the server reads, validated at boot. `.env.example` documents each;
 * nothing else in the code reads `process.env`.
 */
export class EnvironmentVariables {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT = 9991;

  @IsString() @MinLength(1)
  HOST = '127.0.0.1';

  /** Public base URL of the server, as clients reach it (realm_url). Defaults to http://HOST:PORT. */
  @IsOptional() @IsString()
  EXTERNAL_URL?: string;

  @IsString() @MinLength(1)
  DATA_DIR = './data';

  /** Default adapter set for every port; each port can be overridden below. */
  @IsIn(DRIVERS)
  STORAGE_DRIVER: Driver = 'embedded';

  @IsOptional() @IsIn(DRIVERS)
  EVENT_STORE_DRIVER?: Driver;

  @IsOptional() @IsIn(DRIVERS)
  READ_STORE_DRIVER?: Driver;

  /** Delayed jobs (scheduled messages): embedded timers, or BullMQ on REDIS_URL (servers). */
  @IsOptional() @IsIn(DRIVERS)
  SCHEDULER_DRIVER?: Driver;

  /** Run due scheduled jobs (deliveries) in this process. Servers mode may leave them to apps/worker. */
  @Transform(toBool) @IsBoolean()
  RUN_SCHEDULED_JOBS = true;

  /**
   * How often the process that runs scheduled jobs deletes the messages that outlived their
   * retention period (message_retention_days; Zulip's archive_messages, run daily). 0: never (run
   * `npm run cli -- retention` by hand or from cron instead).
   */
  @Transform(toInt) @IsInt() @Min(0) @Max(31_536_000)
  MESSAGE_RETENTION_INTERVAL_SECONDS = 86_400;

  /** normal: survives a process crash (default); full: also survives power loss, slower appends. */
  @IsIn(['normal', 'full'])
  SQLITE_SYNCHRONOUS: 'normal' | 'full' = 'normal';

  @IsString()
  ESDB_URL = 'esdb://localhost:2113?tls=false';

  @IsString()
  MONGODB_URI = 'mongodb://localhost:27017/?directConnection=true';

  @IsString() @MinLength(1)
  MONGODB_DB = 'chat';

  @IsString()
  REDIS_URL = 'redis://localhost:6379';

  /** Run projectors in this process. Servers mode may leave them to apps/worker. */
  @Transform(toBool) @IsBoolean()
  RUN_PROJECTORS = true;

  /** How long a write waits for the read models before answering 503. */
  @Transform(toInt) @IsInt() @Min(100) @Max(120000)
  PROJECTION_WAIT_TIMEOUT_MS = 10000;

  /**
   * How long a command keeps retrying an append that another process beat it to (jittered
   * backoff) before answering 503 with Retry-After (docs/consistency-boundaries.md).
   */
  @Transform(toInt) @IsInt() @Min(50) @Max(120000)
  COMMAND_RETRY_BUDGET_MS = 5000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' = 'info';

  /** auto: human-readable lines in development on a terminal, JSON otherwise. */
  @IsIn(['auto', 'json', 'pretty'])
  LOG_FORMAT: 'auto' | 'json' | 'pretty' = 'auto';

  /**
   * The key-encryption key of the credential store (docs/security.md): 32 bytes, base64. Unset:
   * `DATA_DIR/credentials.key`, created owner-only on first start. Servers with several API
   * instances set it (one key for all; keep it out of the databases and their backups).
   */
  @IsOptional() @IsString() @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'CREDENTIALS_KEY must be 32 bytes in base64 (44 characters)' })
  CREDENTIALS_KEY?: string;

  /**
   * Days between a message's deletion and the destruction of the keys that seal its text in the
   * event log and every copy of it (Zulip's setting of the same name; 0: at once). docs/security.md,
   * "How erasure works".
   */
  @Transform(toInt) @IsInt() @Min(0) @Max(36500)
  ARCHIVED_DATA_VACUUMING_DELAY_DAYS = 30;

  /** Bearer token that opens GET /metrics to clients other than loopback ones. */
  @IsOptional() @IsString() @MinLength(16)
  METRICS_TOKEN?: string;

  /** A listener of its own for /metrics (0: none; the API serves /metrics on PORT). */
  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  METRICS_PORT = 0;

  /** The worker's /metrics listener (0: none). */
  @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  WORKER_METRICS_PORT = 9992;

  /** Bind address of the metrics listeners (METRICS_PORT, WORKER_METRICS_PORT). */
  @IsString() @MinLength(1)
  METRICS_HOST = '127.0.0.1';

  /** In development, create a development organization on first start with an empty store. */
  @Transform(toBool) @IsBoolean()
  DEV_BOOTSTRAP = true;

  /** Zulip's default (zproject/default_settings.py MAX_FILE_UPLOAD_SIZE, 100 MiB since Zulip 10). */
  @Transform(toInt) @IsInt() @Min(1) @Max(1024)
  MAX_FILE_UPLOAD_SIZE_MIB = 100;

  /** Largest form body accepted (uploads are bounded by MAX_FILE_UPLOAD_SIZE_MIB instead). */
  @Transform(toInt) @IsInt() @Min(1024) @Max(100 * 1024 * 1024)
  MAX_REQUEST_BODY_BYTES = 2 * 1024 * 1024;

  /** Requests per window per authenticated user (Zulip: 200 per minute); 0 disables. */
  @Transform(toInt) @IsInt() @Min(0)
  RATE_LIMIT_USER_REQUESTS = 200;

  /** Requests per window per IP address to unauthenticated endpoints (Zulip: 100 per minute); 0 disables. */
  @Transform(toInt) @IsInt() @Min(0)
  RATE_LIMIT_IP_REQUESTS = 100;

  @Transform(toInt) @IsInt() @Min(1) @Max(86400)
  RATE_LIMIT_WINDOW_SECONDS = 60;

  /**
   * Password attempts per account (POST /fetch_api_key) per RATE_LIMIT_AUTHENTICATE_WINDOW_SECONDS
   * (Zulip's RATE_LIMITING_AUTHENTICATE: 5 per 30 minutes; a success starts the count again); 0 disables.
   */
  @Transform(toInt) @IsInt() @Min(0)
  RATE_LIMIT_AUTHENTICATE_REQUESTS = 5;

  @Transform(toInt) @IsInt() @Min(1) @Max(86400)
  RATE_LIMIT_AUTHENTICATE_WINDOW_SECONDS = 1800;

  /**
   * Requests to change one's address (PATCH /settings `email`) per user per hour and per day
   * (Zulip's `email_change_by_user`: 2 an hour, 5 a day); 0 turns that rule off.
   */
  @Transform(toInt) @IsInt() @Min(0)
  RATE_LIMIT_EMAIL_CHANGE_PER_HOUR = 2;

  @Transform(toInt) @IsInt() @Min(0)
  RATE_LIMIT_EMAIL_CHANGE_PER_DAY = 5;

  /** Also send every `svc_*` identifier under the `zulip_*` name the official clients read. */
  @Transform(toBool) @IsBoolean()
  ZULIP_ALIASES = true;

  /** bcrypt cost for new password hashes (each step doubles the work). Lower only for tests. */
  @Transform(toInt) @IsInt() @Min(4) @Max(16)
  PASSWORD_HASH_COST = 12;

  /**
   * The mobile push notification service (Zulip's PUSH_NOTIFICATION_BOUNCER_URL). Unset: no push
   * service, and `POST /mobile_push/register` answers PUSH_SERVICE_NOT_CONFIGURED.
   */
  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  PUSH_NOTIFICATIONS_BOUNCER_URL?: string;

  /**
   * Outgoing email, with Django's (and so Zulip's) meaning. EMAIL_HOST unset: no SMTP server, and
   * mails are written to DATA_DIR/emails instead (GET /emails lists them in development).
   */
  @IsOptional() @IsString() @MinLength(1)
  EMAIL_HOST?: string;

  /** Zulip's default is the submission port with STARTTLS (587, EMAIL_USE_TLS=true). */
  @Transform(toInt) @IsInt() @Min(1) @Max(65535)
  EMAIL_PORT = 587;

  /** SMTP authentication (none when empty). */
  @IsOptional() @IsString()
  EMAIL_HOST_USER?: string;

  @IsOptional() @IsString()
  EMAIL_HOST_PASSWORD?: string;

  /** Django's EMAIL_USE_TLS: STARTTLS is required on the connection (false: never attempted). */
  @Transform(toBool) @IsBoolean()
  EMAIL_USE_TLS = true;

  /** The sender of the server's mails (Zulip's NOREPLY_EMAIL_ADDRESS). Default: noreply@<EXTERNAL_URL's host>. */
  @IsOptional() @IsString() @MinLength(3)
  NOREPLY_EMAIL_ADDRESS?: string;
}

export class ConfigurationError extends Error {}

/** Validates the environment; throws a ConfigurationError listing every bad variable. */
export function loadEnvironment(env: Record<string, string | undefined> = process.env): EnvironmentVariables {
  // Unset and empty variables take the defaults; variables the class does not declare are ignored.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(EnvironmentVariables, given, { exposeDefaultValues: true });
  const errors = validateSync(config);
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigurationError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return config;
}

/** The typed view of the configuration that the rest of the code uses. */
export type AppConfig = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  externalUrl: string;
  dataDir: string;
  eventStoreDriver: Driver;
  readStoreDriver: Driver;
  schedulerDriver: Driver;
  runScheduledJobs: boolean;
  /** Seconds between two retention runs in the process that runs scheduled jobs (0: none). */
  messageRetentionIntervalSeconds: number;
  sqliteSynchronous: 'normal' | 'full';
  esdbUrl: string;
  mongodbUri: string;
  mongodbDb: string;
  redisUrl: string;
  runProjectors: boolean;
  projectionWaitTimeoutMs: number;
  commandRetryBudgetMs: number;
  logLevel: EnvironmentVariables['LOG_LEVEL'];
  logFormat: EnvironmentVariables['LOG_FORMAT'];
  /** /metrics: a bearer token (null: loopback only), and the dedicated listeners (port 0: none). */
  metrics: { token: string | null; host: string; port: number; workerPort: number };
  devBootstrap: boolean;
  maxFileUploadSizeMib: number;
  maxRequestBodyBytes: number;
  passwordHashCost: number;
  zulipAliases: boolean;
  /** CREDENTIALS_KEY (base64), or absent: the key file in the data directory. */
  credentialsKey?: string | null;
  /** ARCHIVED_DATA_VACUUMING_DELAY_DAYS (default 30; 0: deleted messages' keys are destroyed at once). */
  archivedDataVacuumingDelayDays?: number;
  /** PUSH_NOTIFICATIONS_BOUNCER_URL, or null when no push service is configured. */
  pushNotificationsBouncerUrl: string | null;
  rateLimits: {
    perUser: { requests: number; windowSeconds: number };
    perIp: { requests: number; windowSeconds: number };
    /** Password attempts per account at POST /fetch_api_key; absent: not limited. */
    authenticate?: { requests: number; windowSeconds: number };
    /** Requests to change one's address, per user: every rule applies (a rule of 0 requests is off); absent: not limited. */
    emailChange?: { requests: number; windowSeconds: number }[];
  };
  /** Outgoing email (docs/email.md). `host` null: mails go to DATA_DIR/emails. */
  email: {
    host: string | null;
    port: number;
    user: string | null;
    password: string | null;
    useTls: boolean;
    noreplyAddress: string;
  };
  /**
   * Tests only, never an environment variable: the outbox's retry timing (MAIL_RETRY_POLICY by
   * default: minutes between attempts, for days).
   */
  mailRetry?: { firstDelayMs: number; maxDelayMs: number; maxAttempts: number; pollMs?: number; claimMs?: number };
  /**
   * Tests only (`npm run test:servers`), never an environment variable: isolates this
   * installation on servers shared with others — EventStoreDB streams prefixed and the global
   * log filtered (NamespacedEventStore), the BullMQ keys and the Redis client-event channel named
   * after it. The MongoDB database is MONGODB_DB.
   */
  storeNamespace?: string;
  /**
   * Benchmarks only, never an environment variable: `false` leaves message texts in clear in the
   * log (no sealing layer), to measure what the sealing costs (bench/erasure-cost.ts).
   */
  sealMessageTexts?: boolean;
  /**
   * Tests only, never an environment variable: how long a long poll with nothing to say waits
   * before its heartbeat event (default HEARTBEAT_MS, as Zulip: about a minute).
   */
  eventHeartbeatMs?: number;
};

export function toAppConfig(v: EnvironmentVariables): AppConfig {
  const externalUrl = (v.EXTERNAL_URL ?? `http://${v.HOST === '0.0.0.0' ? 'localhost' : v.HOST}:${v.PORT}`).replace(/\/+$/, '');
  return {
    env: v.NODE_ENV,
    port: v.PORT,
    host: v.HOST,
    externalUrl,
    dataDir: v.DATA_DIR,
    eventStoreDriver: v.EVENT_STORE_DRIVER ?? v.STORAGE_DRIVER,
    readStoreDriver: v.READ_STORE_DRIVER ?? v.STORAGE_DRIVER,
    schedulerDriver: v.SCHEDULER_DRIVER ?? v.STORAGE_DRIVER,
    runScheduledJobs: v.RUN_SCHEDULED_JOBS,
    messageRetentionIntervalSeconds: v.MESSAGE_RETENTION_INTERVAL_SECONDS,
    sqliteSynchronous: v.SQLITE_SYNCHRONOUS,
    esdbUrl: v.ESDB_URL,
    mongodbUri: v.MONGODB_URI,
    mongodbDb: v.MONGODB_DB,
    redisUrl: v.REDIS_URL,
    runProjectors: v.RUN_PROJECTORS,
    projectionWaitTimeoutMs: v.PROJECTION_WAIT_TIMEOUT_MS,
    commandRetryBudgetMs: v.COMMAND_RETRY_BUDGET_MS,
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    metrics: { token: v.METRICS_TOKEN ?? null, host: v.METRICS_HOST, port: v.METRICS_PORT, workerPort: v.WORKER_METRICS_PORT },
    devBootstrap: v.DEV_BOOTSTRAP,
    maxFileUploadSizeMib: v.MAX_FILE_UPLOAD_SIZE_MIB,
    maxRequestBodyBytes: v.MAX_REQUEST_BODY_BYTES,
    passwordHashCost: v.PASSWORD_HASH_COST,
    zulipAliases: v.ZULIP_ALIASES,
    pushNotificationsBouncerUrl: v.PUSH_NOTIFICATIONS_BOUNCER_URL ?? null,
    credentialsKey: v.CREDENTIALS_KEY ?? null,
    archivedDataVacuumingDelayDays: v.ARCHIVED_DATA_VACUUMING_DELAY_DAYS,
    rateLimits: {
      perUser: { requests: v.RATE_LIMIT_USER_REQUESTS, windowSeconds: v.RATE_LIMIT_WINDOW_SECONDS },
      perIp: { requests: v.RATE_LIMIT_IP_REQUESTS, windowSeconds: v.RATE_LIMIT_WINDOW_SECONDS },
      authenticate: { requests: v.RATE_LIMIT_AUTHENTICATE_REQUESTS, windowSeconds: v.RATE_LIMIT_AUTHENTICATE_WINDOW_SECONDS },
      emailChange: [
        { requests: v.RATE_LIMIT_EMAIL_CHANGE_PER_HOUR, windowSeconds: 3600 },
        { requests: v.RATE_LIMIT_EMAIL_CHANGE_PER_DAY, windowSeconds: 86400 },
      ],
    },
    email: {
      host: v.EMAIL_HOST ?? null,
      port: v.EMAIL_PORT,
      user: v.EMAIL_HOST_USER || null,
      password: v.EMAIL_HOST_PASSWORD || null,
      useTls: v.EMAIL_USE_TLS,
      noreplyAddress: v.NOREPLY_EMAIL_ADDRESS ?? `noreply@${hostOf(externalUrl)}`,
    },
  };
}

/** The host name of a URL (Zulip's EXTERNAL_HOST without its port), `localhost` when it has none. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '') || 'localhost';
  } catch {
    return 'localhost';
  }
}

export const loadConfig = (env: Record<string, string | undefined> = process.env, overrides: Partial<AppConfig> = {}): AppConfig => ({
  ...toAppConfig(loadEnvironment(env)),
  ...overrides,
});
