import { Controller, Delete, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AddRealmPlaygroundCommand, RemoveRealmPlaygroundCommand } from '@app/application';
import { CurrentUser, RequireRole } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { AddRealmPlaygroundDto } from './realm-playgrounds.dto';

/**
 * ≈ zerver/views/realm_playgrounds.py. The list is read from `/register` (`realm_playgrounds`),
 * as in Zulip, which has no GET endpoint for it.
 */
@Controller('api/v1/realm/playgrounds')
export class RealmPlaygroundsController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @RequireRole('administrator')
  @Summary('Add a code playground (administrators).')
  async add(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: AddRealmPlaygroundDto) {
    return this.commands.execute(new AddRealmPlaygroundCommand({ actor }, { name: p.name, pygmentsLanguage: p.pygments_language, urlTemplate: p.url_template }));
  }

  @Delete(':playground_id')
  @RequireRole('administrator')
  @Summary('Remove a code playground (administrators).')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('playground_id') rawId: string) {
    await this.commands.execute(new RemoveRealmPlaygroundCommand({ actor }, intPathParam(rawId)));
    return {};
  }
}
