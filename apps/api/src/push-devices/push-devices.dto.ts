import { InvalidParamError } from '../http/params/param.errors';
import { type Shape, shapes } from '../http/params/json-shapes';
import { EnumParam, IntParam, JsonParam, StringParam } from '../http/params/param.decorators';

/** uint32_validator: an integer from 0 to 2^32 - 1. */
const uint32: Shape<number> = {
  describe: { type: 'integer', minimum: 0, maximum: 4294967295 },
  parse: (value, p) => {
    const n = shapes.int().parse(value, p);
    if (n < 0 || n > 4294967295) throw new InvalidParamError(`Invalid ${p}`);
    return n;
  },
};

/** POST /mobile_push/register (register_push_device). */
export class RegisterPushDeviceDto {
  @StringParam({ optional: true, description: 'Which of the bouncer\'s public keys encrypted `encrypted_push_registration` (standard Base64).' })
  bouncer_public_key?: string;

  @IntParam({ description: 'The device to configure for push notifications.' })
  device_id!: number;

  @StringParam({ optional: true, description: 'The registration (token, token_kind, timestamp, ios_app_id) encrypted for the bouncer, standard Base64.' })
  encrypted_push_registration?: string;

  @StringParam({ optional: true, description: 'Standard Base64 of a 0x31 byte and a 32-byte secretbox key, to encrypt notifications with.' })
  push_key?: string;

  @JsonParam(uint32, { optional: true, description: 'The client\'s id for `push_key` (unsigned 32-bit).' })
  push_key_id?: number;

  @StringParam({ optional: true, description: 'Standard Base64 of the first 8 bytes of the SHA-256 of the FCM/APNs token.' })
  token_id?: string;

  @EnumParam(['fcm', 'apns'], { optional: true, description: 'Which service issued the token.' })
  token_kind?: 'fcm' | 'apns';
}

/** POST /users/me/apns_device_token. */
export class AddApnsTokenDto {
  @StringParam({ description: 'The ID of the Zulip app making the request.' })
  appid!: string;

  @StringParam({ description: 'The APNs device token (hex).' })
  token!: string;
}

/** POST /users/me/android_gcm_reg_id and the DELETEs of both legacy endpoints. */
export class LegacyTokenDto {
  @StringParam({ description: 'The token provided by the device.' })
  token!: string;
}

/** POST /remove_client_device (remove_device). */
export class RemoveClientDeviceDto {
  @IntParam({ description: 'The ID of the device to remove.' })
  device_id!: number;
}
