import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import type { AppConfig } from '@app/config';
import { checkAppId, checkLegacyToken, pushDevicesDecider, pushDevicesStream, type PushDevicesCommand } from '@app/domain';
import type { ClockPort } from '../ports/clock.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { APP_CONFIG, CLOCK, ID_ALLOCATOR } from '../ports/tokens';
import type { CommandContext } from '../shared/command-context';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { LegacyPushTokenCommand, RegisterClientDeviceCommand, RegisterPushDeviceCommand, RemoveClientDeviceCommand } from './push-devices.command';

/**
 * The token id of a legacy token, as a client computes it for the E2EE registration of the same
 * token: standard Base64 of the first 8 bytes of the token's SHA-256. (The server never sees an
 * E2EE registration's token, which is encrypted for the push bouncer; it matches by this id.)
 */
export const legacyTokenId = (token: string): string => createHash('sha256').update(token, 'utf8').digest().subarray(0, 8).toString('base64');

abstract class PushDevicesHandler {
  constructor(
    protected readonly runner: DeciderRunner,
    protected readonly projections: ProjectionWaiter,
    @Inject(CLOCK) protected readonly clock: ClockPort,
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
  ) {}

  protected async run({ actor }: CommandContext, command: (meta: { realmId: number; userId: number; now: string; serviceConfigured: boolean }) => PushDevicesCommand) {
    if (actor.userId === null) throw new Error('push registrations belong to a user');
    const meta = { realmId: actor.realmId, userId: actor.userId, now: this.clock.now().toISOString(), serviceConfigured: this.config.pushNotificationsBouncerUrl !== null };
    const { position } = await this.runner.run(pushDevicesDecider, pushDevicesStream(actor.userId), command(meta));
    await this.projections.waitFor(position);
  }
}

@CommandHandler(RegisterPushDeviceCommand)
export class RegisterPushDeviceHandler extends PushDevicesHandler implements ICommandHandler<RegisterPushDeviceCommand> {
  execute({ context, fields }: RegisterPushDeviceCommand) {
    return this.run(context, (meta) => ({ type: 'RegisterPushDevice', data: { ...meta, ...fields } }));
  }
}

@CommandHandler(LegacyPushTokenCommand)
export class LegacyPushTokenHandler extends PushDevicesHandler implements ICommandHandler<LegacyPushTokenCommand> {
  execute({ context, op, kind, token, iosAppId }: LegacyPushTokenCommand) {
    // The app id is a typed parameter (checked first), then validate_token.
    if (op === 'add' && kind === 'apns') checkAppId(iosAppId ?? '');
    checkLegacyToken(token, kind);
    const stored = kind === 'apns' ? token.toLowerCase() : token;
    if (op === 'remove') return this.run(context, (meta) => ({ type: 'RemoveLegacyPushToken', data: { ...meta, kind, token: stored } }));
    return this.run(context, (meta) => ({
      type: 'AddLegacyPushToken',
      data: { ...meta, kind, token: stored, tokenId: legacyTokenId(stored), iosAppId: kind === 'apns' ? iosAppId : null },
    }));
  }
}

/** register_device: Zulip's Device ids are global, so the id comes from the server-wide sequence `client_device`. */
@CommandHandler(RegisterClientDeviceCommand)
export class RegisterClientDeviceHandler extends PushDevicesHandler implements ICommandHandler<RegisterClientDeviceCommand> {
  constructor(
    runner: DeciderRunner,
    projections: ProjectionWaiter,
    @Inject(CLOCK) clock: ClockPort,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {
    super(runner, projections, clock, config);
  }

  async execute({ context }: RegisterClientDeviceCommand): Promise<{ deviceId: number }> {
    const deviceId = await this.ids.next('client_device');
    await this.run(context, (meta) => ({ type: 'RegisterClientDevice', data: { ...meta, deviceId } }));
    return { deviceId };
  }
}

@CommandHandler(RemoveClientDeviceCommand)
export class RemoveClientDeviceHandler extends PushDevicesHandler implements ICommandHandler<RemoveClientDeviceCommand> {
  execute({ context, deviceId }: RemoveClientDeviceCommand) {
    return this.run(context, (meta) => ({ type: 'RemoveClientDevice', data: { ...meta, deviceId } }));
  }
}
