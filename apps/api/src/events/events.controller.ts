import { Controller, Delete, Get, Req } from '@nestjs/common';
import { EventQueues } from '@app/application';
import { DomainError } from '@app/domain';
import type { Request } from 'express';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { DeleteEventsDto, GetEventsDto } from './events.dto';

/**
 * GET /events (long poll) and DELETE /events (zerver/tornado/views.py). A queue lives in the API
 * instance that registered it: another instance answers BAD_EVENT_QUEUE_ID, upon which clients
 * (the Python bindings' call_on_each_event, zulip-js) register again.
 */
@Controller('api/v1/events')
export class EventsController {
  constructor(private readonly queues: EventQueues) {}

  @Get()
  @Summary('Events of a queue after last_event_id: at once if any, else waits for the next (a heartbeat after about 50 s).')
  async get(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: GetEventsDto, @Req() request: Request) {
    // validate_fetch_query: a queue's events are fetched only from a known position, at once
    // refused (BAD_REQUEST) before the queue is looked at; without it the request would block.
    if (params.last_event_id === undefined) throw new DomainError("Missing 'last_event_id' argument");
    const queue = this.queues.ownedBy(params.queue_id, actor.userId ?? -1);
    const events = await this.queues.fetch(queue, params.last_event_id, params.dont_block ?? false, (cancel) => {
      // The response's `close` fires when the client goes away (or after the answer: then a no-op).
      request.res?.once('close', cancel);
    });
    return { events, queue_id: queue.id };
  }

  @Delete()
  @Summary('Delete an event queue.')
  async delete(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: DeleteEventsDto) {
    this.queues.ownedBy(params.queue_id, actor.userId ?? -1);
    this.queues.delete(params.queue_id);
    return {};
  }
}
