import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigurationError, loadConfig } from '@app/config';
import { createLogger, PinoNestLogger } from '@app/infrastructure';
import { WorkerModule } from './worker.module';

async function bootstrap() {
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
  const logger = createLogger(config.logLevel, 'team-chat-worker');
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot({ config, logger }), { logger: new PinoNestLogger(logger) });
  app.enableShutdownHooks();
  await app.init();
  logger.info(
    { eventStore: config.eventStoreDriver, readStore: config.readStoreDriver, scheduler: config.schedulerDriver, projectors: config.runProjectors },
    'worker running projectors and scheduled-message deliveries',
  );
}

bootstrap().catch((error) => {
  process.stderr.write(`fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
