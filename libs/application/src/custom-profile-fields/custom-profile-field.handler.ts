import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { customProfileFieldsDecider, customProfileFieldsStream } from '@app/domain';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { ID_ALLOCATOR } from '../ports/tokens';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import {
  CreateProfileFieldCommand,
  DeleteProfileFieldCommand,
  ReorderProfileFieldsCommand,
  UpdateProfileFieldCommand,
} from './custom-profile-field.command';

/** The field commands: one append on `custom_profile_fields-<realmId>`. */
const profileFields = DeciderCommandHandler({ ...customProfileFieldsDecider, mapToStreamId: ({ data }) => customProfileFieldsStream(data.realmId) });

@CommandHandler(CreateProfileFieldCommand)
export class CreateProfileFieldHandler implements ICommandHandler<CreateProfileFieldCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute({ context, field }: CreateProfileFieldCommand) {
    const fieldId = await this.ids.next('custom_profile_field');
    await profileFields(this.commands, context.actor, (meta) => ({
      type: 'CreateProfileField',
      data: {
        ...meta, fieldId, fieldType: field.fieldType, name: field.name, hint: field.hint, fieldData: field.fieldData ?? null,
        displayInProfileSummary: field.displayInProfileSummary ?? false, required: field.required ?? false,
        editableByUser: field.editableByUser ?? true, useForUserMatching: field.useForUserMatching ?? false,
      },
    }));
    return { fieldId };
  }
}

@CommandHandler(UpdateProfileFieldCommand)
export class UpdateProfileFieldHandler implements ICommandHandler<UpdateProfileFieldCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context, fieldId, changes }: UpdateProfileFieldCommand) {
    await profileFields(this.commands, context.actor, (meta) => ({ type: 'UpdateProfileField', data: { fieldId, ...changes, ...meta } }));
  }
}

@CommandHandler(DeleteProfileFieldCommand)
export class DeleteProfileFieldHandler implements ICommandHandler<DeleteProfileFieldCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context, fieldId }: DeleteProfileFieldCommand) {
    await profileFields(this.commands, context.actor, (meta) => ({ type: 'DeleteProfileField', data: { ...meta, fieldId } }));
  }
}

@CommandHandler(ReorderProfileFieldsCommand)
export class ReorderProfileFieldsHandler implements ICommandHandler<ReorderProfileFieldsCommand> {
  constructor(private readonly commands: DeciderCommands) {}

  async execute({ context, order }: ReorderProfileFieldsCommand) {
    await profileFields(this.commands, context.actor, (meta) => ({ type: 'ReorderProfileFields', data: { ...meta, order } }));
  }
}
