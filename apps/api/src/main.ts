import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigurationError, loadConfig } from '@app/config';
import { createLogger, PinoNestLogger } from '@app/infrastructure';
import { AppModule } from './app.module';
import { configureHttp } from './http/configure-http';
import { DevelopmentOrganization } from './development/development-organization';

async function bootstrap() {
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
  const logger = createLogger(config.logLevel);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, logger }), {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  configureHttp(app, config);
  app.enableShutdownHooks();
  await app.init();
  await app.get(DevelopmentOrganization).ensure();
  await app.listen(config.port, config.host);
  logger.info({ url: config.externalUrl, eventStore: config.eventStoreDriver, readStore: config.readStoreDriver, dataDir: config.dataDir }, 'server listening');
}

bootstrap().catch((error) => {
  process.stderr.write(`fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
