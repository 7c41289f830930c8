import { Controller, Get, Post } from '@nestjs/common';
import { AuditHistory, type HistoryTarget } from '@app/application';
import { DomainError } from '@app/domain';
import { ProjectionRebuilder } from '@app/projections';
import { CurrentUser, RequireRole } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { HistoryDto, RebuildProjectionsDto } from './operations.dto';

/**
 * Operators' endpoints (no Zulip counterpart, hence the neutral `svc/` prefix): projection status
 * and blue/green rebuilds, and the audit history of any stream or entity. docs/operations.md.
 */
@Controller('api/v1/svc')
export class OperationsController {
  constructor(
    private readonly rebuilder: ProjectionRebuilder,
    private readonly history: AuditHistory,
  ) {}

  @Get('projections')
  @RequireRole('administrator')
  @Summary('Every projection with its checkpoint and lag, and the rebuild under way or last done (administrators).')
  async projections() {
    return { projections: await this.rebuilder.list(), rebuild: this.rebuilder.status() ?? null };
  }

  @Post('projections/rebuild')
  @RequireRole('administrator')
  @Summary('Start a blue/green rebuild of one projection or all of them; poll GET /svc/projections for progress (administrators).')
  async rebuild(@Params() params: RebuildProjectionsDto) {
    return { rebuild: this.rebuilder.start(params.projection ?? 'all') };
  }

  @Get('history')
  @RequireRole('administrator')
  @Summary('Audit history of a stream, message, channel, user or the organization\'s settings: who, what, when, old and new values, as far as the administrator may read them (administrators; docs/security.md).')
  async streamHistory(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: HistoryDto) {
    const targets: HistoryTarget[] = [];
    if (params.stream !== undefined) targets.push({ kind: 'stream', stream: params.stream });
    if (params.message_id !== undefined) targets.push({ kind: 'message', id: params.message_id });
    if (params.channel_id !== undefined) targets.push({ kind: 'channel', realmId: actor.realmId, id: params.channel_id });
    if (params.user_id !== undefined) targets.push({ kind: 'user', realmId: actor.realmId, id: params.user_id });
    if (params.realm === true) targets.push({ kind: 'realm', realmId: actor.realmId });
    if (targets.length !== 1) throw new DomainError('Exactly one of stream, message_id, channel_id, user_id or realm is required');
    // Every event is listed; what this administrator may not read is "[hidden]" (an owner too).
    return { history: await this.history.read(actor, targets[0]) };
  }
}
