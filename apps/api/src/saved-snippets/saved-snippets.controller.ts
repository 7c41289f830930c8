import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CreateSavedSnippetCommand, DeleteSavedSnippetCommand, EditSavedSnippetCommand, SavedSnippetQueries } from '@app/application';
import { CurrentUser } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { CreateSavedSnippetDto, EditSavedSnippetDto } from './saved-snippets.dto';

/** ≈ zerver/views/saved_snippets.py. */
@Controller('api/v1/saved_snippets')
export class SavedSnippetsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly snippets: SavedSnippetQueries,
  ) {}

  @Get()
  @Summary('The caller\'s saved snippets.')
  async list(@CurrentUser() { actor }: AuthenticatedUser) {
    return { saved_snippets: await this.snippets.list(actor.userId!) };
  }

  @Post()
  @Summary('Save a snippet; answers its id.')
  async create(@CurrentUser() { actor }: AuthenticatedUser, @Params() params: CreateSavedSnippetDto) {
    const { savedSnippetId } = await this.commands.execute(new CreateSavedSnippetCommand({ actor }, params.title, params.content));
    return { saved_snippet_id: savedSnippetId };
  }

  @Patch(':saved_snippet_id')
  @Summary('Change a saved snippet\'s title or content.')
  async edit(@CurrentUser() { actor }: AuthenticatedUser, @Param('saved_snippet_id') rawId: string, @Params() params: EditSavedSnippetDto) {
    await this.commands.execute(new EditSavedSnippetCommand({ actor }, intPathParam(rawId), { title: params.title, content: params.content }));
    return {};
  }

  @Delete(':saved_snippet_id')
  @Summary('Delete a saved snippet.')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('saved_snippet_id') rawId: string) {
    await this.commands.execute(new DeleteSavedSnippetCommand({ actor }, intPathParam(rawId)));
    return {};
  }
}
