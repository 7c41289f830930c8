import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigurationError, loadConfig } from '@app/config';
import { createLogger, exitOnBootFailure, type Logger, limitHeapGrowth, PinoNestLogger, PrometheusMetrics, usePrettyLogs } from '@app/infrastructure';
import { Projector } from '@app/projections';
import { AppModule } from './app.module';
import { configureHttp } from './http/configure-http';
import { createHttpAdapter } from './http/http-adapter';
import { DevelopmentOrganization } from './development/development-organization';
import { developmentExposureWarning } from './development/exposure-warning';
import { startMetricsServer } from './metrics/metrics-server';

/** Set once the configuration is read: a failure to start is logged through it too. */
let logger: Logger | undefined;

async function bootstrap() {
  // Whatever this process creates (data directory, logs, uploads in progress) is for its own account only (docs/security.md).
  process.umask(0o077);
  // A committed heap that follows the live one (issue 23: resident memory flat under load).
  limitHeapGrowth();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\nSee .env.example for every variable and its allowed values.\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  // Readable lines in development on a terminal, JSON lines elsewhere (LOG_FORMAT overrides).
  logger = createLogger(config.logLevel, 'team-chat', { pretty: usePrettyLogs(config.logFormat, config.env) });
  const metrics = new PrometheusMetrics();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, logger, metrics }), createHttpAdapter(), {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
    // An error while the modules are created reaches the handler below (Nest would exit 1 itself).
    abortOnError: false,
  });
  configureHttp(app, config);
  app.enableShutdownHooks();
  await app.init();
  // A projector that stops for good later (a sealed event this installation has no key for) ends
  // the process as it would have at start, rather than serve read models that no longer move.
  if (config.runProjectors) app.get(Projector).whenStoppedForGood((error) => exitOnBootFailure(error, logger, 'run'));
  await app.get(DevelopmentOrganization).ensure();
  await app.listen(config.port, config.host);
  const exposed = developmentExposureWarning(config);
  if (exposed) {
    logger.warn({ host: config.host, port: config.port }, 'development server listening beyond loopback: anyone who reaches it can log in as any account (dev_fetch_api_key)');
    process.stderr.write(`${exposed}\n`);
  }
  if (config.metrics.port > 0) {
    const listener = await startMetricsServer(metrics, { host: config.metrics.host, port: config.metrics.port, token: config.metrics.token });
    app.getHttpServer().on('close', () => void listener.close());
    logger.info({ url: `http://${config.metrics.host}:${listener.port}/metrics` }, 'metrics listening');
  }
  logger.info({ url: config.externalUrl, eventStore: config.eventStoreDriver, readStore: config.readStoreDriver, dataDir: config.dataDir }, 'server listening');
}

// A data directory the log cannot be opened with exits with 78 and the file to restore (docs/deployment.md).
bootstrap().catch((error: unknown) => exitOnBootFailure(error, logger));
