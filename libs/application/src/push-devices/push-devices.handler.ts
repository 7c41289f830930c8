import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import type { AppConfig } from '@app/config';
import { checkAppId, checkLegacyToken, type PushDeviceEvent, pushDevicesDecider, pushDevicesStream, type PushDevicesCommand } from '@app/domain';
import type { PushSecretKind } from '../ports/credential-store.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import { APP_CONFIG, ID_ALLOCATOR } from '../ports/tokens';
import type { CommandContext } from '../shared/command-context';
import { CredentialVault } from '../shared/credential-vault';
import { DeciderCommandHandler, DeciderCommands } from '../shared/decider-command-handler';
import { LegacyPushTokenCommand, RegisterClientDeviceCommand, RegisterPushDeviceCommand, RemoveClientDeviceCommand } from './push-devices.command';
import { entriesNamedBy, entriesReleasedBy, pushSecretDigest } from './push-secrets';

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
async function change(commands: DeciderCommands, config: AppConfig, { actor }: CommandContext, command: (meta: PushMeta) => PushDevicesCommand): Promise<PushDeviceEvent[]> {
  const userId = actor.userId;
  if (userId === null) throw new Error('push registrations belong to a user');
  const { newEvents } = await pushDevices(commands, actor, ({ realmId, now }) => command({ realmId, userId, now, serviceConfigured: config.pushNotificationsBouncerUrl !== null }));
  return newEvents;
}

type Secret = { kind: PushSecretKind; secret: string } | undefined;

/**
 * Runs a push command whose secrets go into the credential store (docs/security.md, "Where
 * secrets live"): each secret is stored first under a new entry, so that the event naming it never
 * names a missing one; then the command runs. Afterwards the entries no event names (a refused
 * command, or one that changed nothing) and the entries the events release (a replaced key or
 * registration, a removed token or device) are removed from the store.
 */
async function changeWithSecrets(
  commands: DeciderCommands,
  config: AppConfig,
  vault: CredentialVault,
  context: CommandContext,
  secrets: Secret[],
  command: (meta: PushMeta, entryIds: (string | undefined)[]) => PushDevicesCommand,
): Promise<void> {
  const { realmId, userId } = context.actor;
  const entryIds = await Promise.all(secrets.map((s) => (s && userId !== null ? vault.storePushSecret(s.kind, realmId, userId, s.secret) : undefined)));
  const stored = entryIds.filter((id): id is string => id !== undefined);
  let events: PushDeviceEvent[];
  try {
    events = await change(commands, config, context, (meta) => command(meta, entryIds));
  } catch (error) {
    for (const id of stored) await vault.forget(id);
    throw error;
  }
  const named = new Set(events.flatMap(entriesNamedBy));
  for (const id of [...stored.filter((id) => !named.has(id)), ...events.flatMap(entriesReleasedBy)]) await vault.forget(id);
}

@CommandHandler(RegisterPushDeviceCommand)
export class RegisterPushDeviceHandler implements ICommandHandler<RegisterPushDeviceCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly vault: CredentialVault,
  ) {}

  async execute({ context, fields }: RegisterPushDeviceCommand): Promise<void> {
    const { pushKey, encryptedPushRegistration, ...rest } = fields;
    // Nothing is stored for a request the decider is sure to refuse before looking at the secrets.
    if (this.config.pushNotificationsBouncerUrl === null) {
      await change(this.commands, this.config, context, (meta) => ({ type: 'RegisterPushDevice', data: { ...meta, deviceId: fields.deviceId } }));
      return;
    }
    const secrets: Secret[] = [
      pushKey === undefined ? undefined : { kind: 'push_key', secret: pushKey },
      encryptedPushRegistration === undefined ? undefined : { kind: 'push_registration', secret: encryptedPushRegistration },
    ];
    await changeWithSecrets(this.commands, this.config, this.vault, context, secrets, (meta, [pushKeyEntryId, registrationEntryId]) => ({
      type: 'RegisterPushDevice',
      data: { ...meta, ...rest, pushKey, pushKeyDigest: pushKey === undefined ? undefined : pushSecretDigest(pushKey), pushKeyEntryId, registrationEntryId },
    }));
  }
}

@CommandHandler(LegacyPushTokenCommand)
export class LegacyPushTokenHandler implements ICommandHandler<LegacyPushTokenCommand> {
  constructor(
    private readonly commands: DeciderCommands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly vault: CredentialVault,
  ) {}

  async execute({ context, op, kind, token, iosAppId }: LegacyPushTokenCommand): Promise<void> {
    // The app id is a typed parameter (checked first), then validate_token.
    if (op === 'add' && kind === 'apns') checkAppId(iosAppId ?? '');
    checkLegacyToken(token, kind);
    const stored = kind === 'apns' ? token.toLowerCase() : token;
    const tokenDigest = pushSecretDigest(stored);
    if (op === 'remove') {
      await changeWithSecrets(this.commands, this.config, this.vault, context, [], (meta) => ({ type: 'RemoveLegacyPushToken', data: { ...meta, kind, tokenDigest } }));
      return;
    }
    await changeWithSecrets(this.commands, this.config, this.vault, context, [{ kind: 'push_token', secret: stored }], (meta, [tokenEntryId]) => ({
      type: 'AddLegacyPushToken',
      data: { ...meta, kind, tokenDigest, tokenEntryId: tokenEntryId!, tokenId: legacyTokenId(stored), iosAppId: kind === 'apns' ? iosAppId : null },
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
    private readonly vault: CredentialVault,
  ) {}

  async execute({ context, deviceId }: RemoveClientDeviceCommand): Promise<void> {
    await changeWithSecrets(this.commands, this.config, this.vault, context, [], (meta) => ({ type: 'RemoveClientDevice', data: { ...meta, deviceId } }));
  }
}
