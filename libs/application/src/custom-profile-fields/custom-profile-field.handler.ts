import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { customProfileFieldsDecider, customProfileFieldsStream, type CustomProfileFieldsCommand } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import type { CommandContext } from '../shared/command-context';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import {
  CreateProfileFieldCommand,
  DeleteProfileFieldCommand,
  ReorderProfileFieldsCommand,
  UpdateProfileFieldCommand,
} from './custom-profile-field.command';

type Body<T extends CustomProfileFieldsCommand['type']> = Omit<Extract<CustomProfileFieldsCommand, { type: T }>['data'], 'realmId' | 'actor' | 'now'>;

/** The write path shared by the field commands: one append on `custom_profile_fields-<realmId>`. */
abstract class ProfileFieldsHandler {
  constructor(
    protected readonly runner: DeciderRunner,
    protected readonly projections: ProjectionWaiter,
    @Inject(CLOCK) protected readonly clock: ClockPort,
  ) {}

  protected async run<T extends CustomProfileFieldsCommand['type']>({ actor }: CommandContext, type: T, body: Body<T>): Promise<void> {
    const command = { type, data: { ...body, realmId: actor.realmId, actor, now: this.clock.now().toISOString() } } as unknown as CustomProfileFieldsCommand;
    const { position } = await this.runner.run(customProfileFieldsDecider, customProfileFieldsStream(actor.realmId), command);
    await this.projections.waitFor(position);
  }
}

@CommandHandler(CreateProfileFieldCommand)
export class CreateProfileFieldHandler extends ProfileFieldsHandler implements ICommandHandler<CreateProfileFieldCommand> {
  constructor(runner: DeciderRunner, projections: ProjectionWaiter, @Inject(CLOCK) clock: ClockPort, @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort) {
    super(runner, projections, clock);
  }

  async execute({ context, field }: CreateProfileFieldCommand) {
    const fieldId = await this.ids.next('custom_profile_field');
    await this.run(context, 'CreateProfileField', {
      fieldId, fieldType: field.fieldType, name: field.name, hint: field.hint, fieldData: field.fieldData ?? null,
      displayInProfileSummary: field.displayInProfileSummary ?? false, required: field.required ?? false,
      editableByUser: field.editableByUser ?? true, useForUserMatching: field.useForUserMatching ?? false,
    });
    return { fieldId };
  }
}

@CommandHandler(UpdateProfileFieldCommand)
export class UpdateProfileFieldHandler extends ProfileFieldsHandler implements ICommandHandler<UpdateProfileFieldCommand> {
  execute({ context, fieldId, changes }: UpdateProfileFieldCommand) {
    return this.run(context, 'UpdateProfileField', { fieldId, ...changes });
  }
}

@CommandHandler(DeleteProfileFieldCommand)
export class DeleteProfileFieldHandler extends ProfileFieldsHandler implements ICommandHandler<DeleteProfileFieldCommand> {
  execute({ context, fieldId }: DeleteProfileFieldCommand) {
    return this.run(context, 'DeleteProfileField', { fieldId });
  }
}

@CommandHandler(ReorderProfileFieldsCommand)
export class ReorderProfileFieldsHandler extends ProfileFieldsHandler implements ICommandHandler<ReorderProfileFieldsCommand> {
  execute({ context, order }: ReorderProfileFieldsCommand) {
    return this.run(context, 'ReorderProfileFields', { order });
  }
}
