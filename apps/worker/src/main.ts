import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigurationError, loadConfig } from '@app/config';
import { createLogger, exitOnBootFailure, type Logger, limitHeapGrowth, PinoNestLogger, PrometheusMetrics, usePrettyLogs } from '@app/infrastructure';
import { Projector } from '@app/projections';
import { startWorkerMetrics } from './worker-metrics';
import { WorkerModule } from './worker.module';

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
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  logger = createLogger(config.logLevel, 'team-chat-worker', { pretty: usePrettyLogs(config.logFormat, config.env) });
  const metrics = new PrometheusMetrics();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot({ config, logger, metrics }), {
    logger: new PinoNestLogger(logger),
    // An error while the modules are created reaches the handler below (Nest would exit 1 itself).
    abortOnError: false,
  });
  app.enableShutdownHooks();
  await app.init();
  // A projector that stops for good later (a sealed event this installation has no key for) ends
  // the process as it would have at start, rather than serve read models that no longer move.
  if (config.runProjectors) app.get(Projector).whenStoppedForGood((error) => exitOnBootFailure(error, logger, 'run'));
  // Its own /metrics (projector lag, deliveries, appends, process) on WORKER_METRICS_PORT.
  if (config.metrics.workerPort > 0) {
    const listener = await startWorkerMetrics(app, metrics, config);
    logger.info({ url: `http://${config.metrics.host}:${listener.port}/metrics` }, 'worker metrics listening');
  }
  logger.info(
    { eventStore: config.eventStoreDriver, readStore: config.readStoreDriver, scheduler: config.schedulerDriver, projectors: config.runProjectors },
    'worker running projectors and scheduled-message deliveries',
  );
}

// A data directory the log cannot be opened with exits with 78 and the file to restore (docs/deployment.md).
bootstrap().catch((error: unknown) => exitOnBootFailure(error, logger));
