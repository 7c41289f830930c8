import type { TokenKind } from '@app/domain';

/**
 * A device record with its E2EE registration, as Zulip's DeviceInfoDict (`devices` of
 * `POST /register`, zerver/lib/devices.py get_devices) shows it, plus the token's kind (kept for
 * the notification sender; not part of the API). Every field is null until the device registers.
 */
export type PushDeviceInfo = {
  push_key_id: number | null;
  /** Standard Base64 of the token id registered at the push service. */
  push_token_id: string | null;
  /** A token whose registration is in progress (never left set here: registration completes within the request). */
  pending_push_token_id: string | null;
  /** Seconds since the epoch: when `pending_push_token_id` was last set. */
  push_token_last_updated_timestamp: number | null;
  push_registration_error_code: string | null;
  push_token_kind: TokenKind | null;
};

/** A device record that has not registered for push yet. */
export const NEW_DEVICE_INFO: PushDeviceInfo = {
  push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null, push_token_kind: null,
};

/** A user's device records and push registrations: devices by device id, and legacy tokens. */
export type PushRegistrationDocument = {
  user_id: number;
  realm_id: number;
  devices: Record<string, PushDeviceInfo>;
  legacy_tokens: { kind: TokenKind; token: string; ios_app_id: string | null }[];
};

export const PUSH_REGISTRATIONS = 'push_registrations';

/** Zulip's DeviceInfoDict of one device (without the token kind). */
export const toApiDevice = ({ push_token_kind: _kind, ...info }: PushDeviceInfo) => info;
