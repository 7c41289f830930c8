import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { PrometheusMetrics } from '@app/infrastructure';
import { Public } from '../http/auth.decorators';
import { Summary } from '../openapi/summary.decorator';
import { METRICS_REFUSALS, metricsAccess } from './metrics-access';

/** Prometheus text format (prom-client). Not part of the chat API: loopback, or METRICS_TOKEN (metrics-access.ts). */
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: PrometheusMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  @Summary('Prometheus metrics (text format): loopback clients, or Authorization: Bearer <METRICS_TOKEN>.')
  async scrape(@Req() req: Request, @Res() res: Response): Promise<void> {
    const access = metricsAccess(req, this.config.metrics.token, false);
    if (access !== 'ok') {
      const refusal = METRICS_REFUSALS[access];
      if (access === 'unauthorized') res.setHeader('WWW-Authenticate', 'Bearer');
      res.status(refusal.status).type('text/plain').send(refusal.message);
      return;
    }
    res.status(200).type(this.metrics.contentType).send(await this.metrics.text());
  }
}
