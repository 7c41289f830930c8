import { Command } from '@nestjs/cqrs';
import type { TokenKind } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

export type PushRegistrationFields = {
  deviceId: number;
  pushKey?: string;
  pushKeyId?: number;
  tokenKind?: TokenKind;
  tokenId?: string;
  bouncerPublicKey?: string;
  encryptedPushRegistration?: string;
};

/** `POST /mobile_push/register` (register_push_device). */
export class RegisterPushDeviceCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly fields: PushRegistrationFields,
  ) {
    super();
  }
}

/** The legacy token endpoints: add (`POST`) or remove (`DELETE`) an APNs or FCM token. */
export class LegacyPushTokenCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly op: 'add' | 'remove',
    readonly kind: TokenKind,
    readonly token: string,
    readonly iosAppId: string | null = null,
  ) {
    super();
  }
}

/** `POST /register_client_device` (register_device): a new device record of the user; returns its id. */
export class RegisterClientDeviceCommand extends Command<{ deviceId: number }> {
  constructor(readonly context: CommandContext) {
    super();
  }
}

/** `POST /remove_client_device` (remove_device). */
export class RemoveClientDeviceCommand extends Command<void> {
  constructor(
    readonly context: CommandContext,
    readonly deviceId: number,
  ) {
    super();
  }
}
