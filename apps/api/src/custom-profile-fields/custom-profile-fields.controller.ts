import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CreateProfileFieldCommand,
  CustomProfileFieldQueries,
  DeleteProfileFieldCommand,
  ReorderProfileFieldsCommand,
  UpdateProfileFieldCommand,
} from '@app/application';
import { CurrentUser, RequireRole } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import { intPathParam } from '../http/path-params';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { CreateProfileFieldDto, ReorderProfileFieldsDto, UpdateProfileFieldDto } from './custom-profile-fields.dto';

/** ≈ zerver/views/custom_profile_fields.py, the organization's fields. */
@Controller('api/v1/realm/profile_fields')
export class CustomProfileFieldsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly fields: CustomProfileFieldQueries,
  ) {}

  @Get()
  @Summary('The organization\'s custom profile fields, by their order.')
  async list(@CurrentUser() { actor }: AuthenticatedUser) {
    return { custom_fields: await this.fields.list(actor.realmId) };
  }

  @Post()
  @RequireRole('administrator')
  @Summary('Create a custom profile field (administrators).')
  async create(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: CreateProfileFieldDto) {
    const { fieldId } = await this.commands.execute(
      new CreateProfileFieldCommand({ actor }, {
        fieldType: p.field_type, name: p.name ?? '', hint: p.hint ?? '', fieldData: p.field_data,
        displayInProfileSummary: p.display_in_profile_summary, required: p.required, editableByUser: p.editable_by_user,
        useForUserMatching: p.use_for_user_matching,
      }),
    );
    return { id: fieldId };
  }

  @Patch()
  @RequireRole('administrator')
  @Summary('Reorder the custom profile fields (administrators).')
  async reorder(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: ReorderProfileFieldsDto) {
    await this.commands.execute(new ReorderProfileFieldsCommand({ actor }, p.order));
    return {};
  }

  @Patch(':field_id')
  @RequireRole('administrator')
  @Summary('Change a custom profile field (administrators).')
  async update(@CurrentUser() { actor }: AuthenticatedUser, @Param('field_id') rawId: string, @Params() p: UpdateProfileFieldDto) {
    await this.commands.execute(
      new UpdateProfileFieldCommand({ actor }, intPathParam(rawId), {
        name: p.name, hint: p.hint, fieldData: p.field_data, displayInProfileSummary: p.display_in_profile_summary,
        required: p.required, editableByUser: p.editable_by_user, useForUserMatching: p.use_for_user_matching,
      }),
    );
    return {};
  }

  @Delete(':field_id')
  @RequireRole('administrator')
  @Summary('Delete a custom profile field and every value of it (administrators).')
  async remove(@CurrentUser() { actor }: AuthenticatedUser, @Param('field_id') rawId: string) {
    await this.commands.execute(new DeleteProfileFieldCommand({ actor }, intPathParam(rawId)));
    return {};
  }
}
