import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigurationError, loadConfig } from '@app/config';
import { createLogger, limitHeapGrowth, PinoNestLogger, PrometheusMetrics, usePrettyLogs } from '@app/infrastructure';
import { startWorkerMetrics } from './worker-metrics';
import { WorkerModule } from './worker.module';

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
  const logger = createLogger(config.logLevel, 'team-chat-worker', { pretty: usePrettyLogs(config.logFormat, config.env) });
  const metrics = new PrometheusMetrics();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot({ config, logger, metrics }), { logger: new PinoNestLogger(logger) });
  app.enableShutdownHooks();
  await app.init();
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

bootstrap().catch((error) => {
  process.stderr.write(`fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
