import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import type { Response } from 'express';
import { EVENT_STORE, type EventStorePort, READ_STORE, type ReadStorePort } from '@app/application';
import { Projector } from '@app/projections';
import { Public } from '../http/auth.decorators';

/** Readiness of each adapter, for load balancers and operators. Not part of the chat API. */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Optional() private readonly projector?: Projector,
  ) {}

  @Get()
  @Public()
  async health(@Res() res: Response) {
    const [eventStore, readStore, head] = await Promise.all([
      this.events.health(),
      this.readStore.health(),
      this.events.headPosition().catch(() => undefined),
    ]);
    // A projector stopped for good (a sealed event without its key: docs/deployment.md) serves stale read models.
    const stoppedBy = this.projector?.stoppedBy;
    const projections = this.projector
      ? { ok: !stoppedBy, running_here: true, position: this.projector.position.toString(), head: head?.toString() ?? null, ...(stoppedBy ? { detail: stoppedBy.message } : {}) }
      : { ok: true, running_here: false };
    const ok = eventStore.ok && readStore.ok && projections.ok;
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'unavailable', event_store: eventStore, read_store: readStore, projections });
  }
}
