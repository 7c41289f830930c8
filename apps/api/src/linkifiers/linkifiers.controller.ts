import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AddLinkifierCommand, LinkifierQueries, RemoveLinkifierCommand, ReorderLinkifiersCommand, UpdateLinkifierCommand } from '@app/application';
import { CurrentUser, RequireRole } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { LinkifierDto, ReorderLinkifiersDto } from './linkifiers.dto';

/** ≈ zerver/views/realm_linkifiers.py: `/realm/filters` (one linkifier) and `/realm/linkifiers` (the list). */
@Controller('api/v1/realm')
export class LinkifiersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly linkifiers: LinkifierQueries,
  ) {}

  @Get('linkifiers')
  @Summary("The organization's linkifiers, in the order they are applied.")
  async list(@CurrentUser() { actor }: AuthenticatedUser) {
    return { linkifiers: await this.linkifiers.list(actor.realmId) };
  }

  @Patch('linkifiers')
  @RequireRole('administrator')
  @Summary('Reorder the linkifiers (administrators).')
  async reorder(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: ReorderLinkifiersDto) {
    await this.commands.execute(new ReorderLinkifiersCommand({ actor }, p.ordered_linkifier_ids));
    return {};
  }

  @Post('filters')
  @RequireRole('administrator')
  @Summary('Add a linkifier (administrators).')
  async create(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: LinkifierDto) {
    return this.commands.execute(new AddLinkifierCommand({ actor }, p.pattern, p.url_template));
  }

  @Patch('filters/:filter_id')
  @RequireRole('administrator')
  @Summary("Change a linkifier's pattern and URL template (administrators).")
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Param('filter_id') rawId: string, @Params() p: LinkifierDto) {
    await this.commands.execute(new UpdateLinkifierCommand({ actor }, intPathParam(rawId), p.pattern, p.url_template));
    return {};
  }

  @Delete('filters/:filter_id')
  @RequireRole('administrator')
  @Summary('Remove a linkifier (administrators).')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('filter_id') rawId: string) {
    await this.commands.execute(new RemoveLinkifierCommand({ actor }, intPathParam(rawId)));
    return {};
  }
}
