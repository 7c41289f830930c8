import { Controller, Delete, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { LegacyPushTokenCommand, RegisterPushDeviceCommand } from '@app/application';
import { CurrentUser, HumansOnly } from '../http/auth.decorators';
import { Params } from '../http/params/params.decorator';
import type { AuthenticatedUser } from '../http/request-context';
import { Summary } from '../openapi/summary.decorator';
import { AddApnsTokenDto, LegacyTokenDto, RegisterPushDeviceDto } from './push-devices.dto';

/** ≈ zerver/views/push_notifications.py: E2EE registration and the legacy token endpoints. */
@Controller('api/v1')
@HumansOnly()
export class PushDevicesController {
  constructor(private readonly commands: CommandBus) {}

  @Post('mobile_push/register')
  @Summary('Register a device for end-to-end encrypted push notifications, or rotate its key or token.')
  async register(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: RegisterPushDeviceDto) {
    await this.commands.execute(
      new RegisterPushDeviceCommand({ actor }, {
        deviceId: p.device_id, pushKey: p.push_key, pushKeyId: p.push_key_id, tokenKind: p.token_kind, tokenId: p.token_id,
        bouncerPublicKey: p.bouncer_public_key, encryptedPushRegistration: p.encrypted_push_registration,
      }),
    );
    return {};
  }

  @Post('users/me/apns_device_token')
  @Summary('Add an APNs device token (legacy, not end-to-end encrypted).')
  async addApns(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: AddApnsTokenDto) {
    await this.commands.execute(new LegacyPushTokenCommand({ actor }, 'add', 'apns', p.token, p.appid));
    return {};
  }

  @Delete('users/me/apns_device_token')
  @Summary('Remove an APNs device token.')
  async removeApns(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: LegacyTokenDto) {
    await this.commands.execute(new LegacyPushTokenCommand({ actor }, 'remove', 'apns', p.token));
    return {};
  }

  @Post('users/me/android_gcm_reg_id')
  @Summary('Add an FCM registration token (legacy, not end-to-end encrypted).')
  async addFcm(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: LegacyTokenDto) {
    await this.commands.execute(new LegacyPushTokenCommand({ actor }, 'add', 'fcm', p.token));
    return {};
  }

  @Delete('users/me/android_gcm_reg_id')
  @Summary('Remove an FCM registration token.')
  async removeFcm(@CurrentUser() { actor }: AuthenticatedUser, @Params() p: LegacyTokenDto) {
    await this.commands.execute(new LegacyPushTokenCommand({ actor }, 'remove', 'fcm', p.token));
    return {};
  }
}
