import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import type { AppConfig } from '@app/config';
import { checkAppId, checkLegacyToken, pushDevicesDecider, pushDevicesStream, type PushDevicesCommand } from '@app/domain';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { APP_CONFIG, ID_ALLOCATOR } from '../ports/tokens';
import type { CommandContext } from '../shared/command-context';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { LegacyPushTokenCommand, RegisterClientDeviceCommand, RegisterPushDeviceCommand, RemoveClientDeviceCommand } from './push-devices.command';

/**
 * The token id of a legacy token, as a client computes it for the E2EE registration of the same
 * token: standard Base64 of the first 8 bytes of the token's SHA-256. (The server never sees an
 * E2EE registration's token, which is encrypted for the push bouncer; it matches by this id.)
 */
export const legacyTokenId = (token: string): string => createHash('sha256').update(token, 'utf8').digest().subarray(0, 8).toString('base64');

/** A user's push registrations and devices, on `push_devices-<userId>`. */
const pushDevices = DeciderCommandHandler({ ...pushDevicesDecider, mapToStreamId: ({ data }) => pushDevicesStream(data.userId) });

type PushMeta = { realmId: number; userId: number; now: string; serviceConfigured: boolean };

/** Runs `command` with what every push command carries: the user, and whether a push service is configured. */
async function change(commands: DeciderCommands, config: AppConfig, { actor }: CommandContext, command: (meta: PushMeta) => PushDevicesCommand): Promise<void> {
  const userId = actor.userId;
  if (userId === null) throw new Error('push registrations belong to a user');
  await pushDevices(commands, actor, ({ realmId, now }) => command({ realmId, userId, now, serviceConfigured: config.pushNotificationsBouncerUrl !== null }));
}

@CommandHandler(RegisterPushDeviceCommand)
export class RegisterPushDeviceHandler implements ICommandHandler<RegisterPushDeviceCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  execute({ context, fields }: RegisterPushDeviceCommand) {
    return change(this.commands, this.config, context, (meta) => ({ type: 'RegisterPushDevice', data: { ...meta, ...fields } }));
  }
}

@CommandHandler(LegacyPushTokenCommand)
export class LegacyPushTokenHandler implements ICommandHandler<LegacyPushTokenCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  execute({ context, op, kind, token, iosAppId }: LegacyPushTokenCommand) {
    // The app id is a typed parameter (checked first), then validate_token.
    if (op === 'add' && kind === 'apns') checkAppId(iosAppId ?? '');
    checkLegacyToken(token, kind);
    const stored = kind === 'apns' ? token.toLowerCase() : token;
    if (op === 'remove') return change(this.commands, this.config, context, (meta) => ({ type: 'RemoveLegacyPushToken', data: { ...meta, kind, token: stored } }));
    return change(this.commands, this.config, context, (meta) => ({
      type: 'AddLegacyPushToken',
      data: { ...meta, kind, token: stored, tokenId: legacyTokenId(stored), iosAppId: kind === 'apns' ? iosAppId : null },
    }));
  }
}

/** register_device: Zulip's Device ids are global, so the id comes from the server-wide sequence `client_device`. */
@CommandHandler(RegisterClientDeviceCommand)
export class RegisterClientDeviceHandler implements ICommandHandler<RegisterClientDeviceCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
  ) {}

  async execute({ context }: RegisterClientDeviceCommand): Promise<{ deviceId: number }> {
    const deviceId = await this.ids.next('client_device');
    await change(this.commands, this.config, context, (meta) => ({ type: 'RegisterClientDevice', data: { ...meta, deviceId } }));
    return { deviceId };
  }
}

@CommandHandler(RemoveClientDeviceCommand)
export class RemoveClientDeviceHandler implements ICommandHandler<RemoveClientDeviceCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  execute({ context, deviceId }: RemoveClientDeviceCommand) {
    return change(this.commands, this.config, context, (meta) => ({ type: 'RemoveClientDevice', data: { ...meta, deviceId } }));
  }
}
