import { Controller, Get, Inject } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { Public } from '../http/auth.decorators';
import { listApiRoutes } from './api-routes';
import { buildOpenApiDocument } from './openapi-document';
import { Summary } from './summary.decorator';

@Controller('api/v1/openapi.json')
export class OpenApiController {
  private document: object | undefined;

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Served raw (no envelope): it is a document, not an API response. */
  @Get()
  @Public()
  @Summary('This API\'s OpenAPI description, generated from the code.')
  get(): object {
    this.document ??= buildOpenApiDocument(listApiRoutes(this.moduleRef, { prefix: '/' }), this.config.externalUrl);
    return this.document;
  }
}
