import { Controller, Delete, Get, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CreateDraftsCommand, DeleteDraftCommand, DraftQueries, EditDraftCommand } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { DraftsSynchronizationGuard } from './drafts-synchronization.guard';
import { CreateDraftsDto, EditDraftDto } from './drafts.dto';

/** ≈ zerver/views/drafts.py. */
@Controller('api/v1/drafts')
@UseGuards(DraftsSynchronizationGuard)
export class DraftsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly drafts: DraftQueries,
  ) {}

  @Get()
  @Summary('The caller\'s drafts, most recently edited first.')
  async list(@CurrentUser() { actor }: AuthenticatedUser) {
    const drafts = await this.drafts.list(actor.userId!);
    return { count: drafts.length, drafts };
  }

  @Post()
  @Summary('Create drafts; answers their ids in request order.')
  async create(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: CreateDraftsDto) {
    return this.commands.execute(new CreateDraftsCommand({ actor }, params.drafts));
  }

  @Patch(':draft_id')
  @Summary('Replace a draft.')
  async edit(@CurrentUser() { actor }: AuthenticatedUser, @Param('draft_id') rawId: string, @Params() params: EditDraftDto) {
    await this.commands.execute(new EditDraftCommand({ actor }, intPathParam(rawId), params.draft));
    return {};
  }

  @Delete(':draft_id')
  @Summary('Delete a draft.')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('draft_id') rawId: string) {
    await this.commands.execute(new DeleteDraftCommand({ actor }, intPathParam(rawId)));
    return {};
  }
}
