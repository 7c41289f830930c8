import type { TokenKind } from '@app/domain';

/**
 * A device record with its E2EE registration, as Zulip's DeviceInfoDict (`devices` of
 * `POST /register`, zerver/lib/devices.py get_devices) shows it, plus what the notification
 * sender needs and the API does not show: the token's kind and the credential store entries
 * holding the push key and the encrypted registration (never the secrets themselves). Every field
 * is null until the device registers.
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
  push_key_entry_id: string | null;
  registration_entry_id: string | null;
};

/** A device record that has not registered for push yet. */
export const NEW_DEVICE_INFO: PushDeviceInfo = {
  push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null, push_token_kind: null,
  push_key_entry_id: null, registration_entry_id: null,
};

/** A legacy registration: the token's kind, its digest (what a removal names) and the credential store entry holding it. */
export type LegacyTokenInfo = { kind: TokenKind; token_digest: string; token_entry_id: string | null; ios_app_id: string | null };

/** A user's device records and push registrations: devices by device id, and legacy tokens. */
export type PushRegistrationDocument = {
  user_id: number;
  realm_id: number;
  devices: Record<string, PushDeviceInfo>;
  legacy_tokens: LegacyTokenInfo[];
};

export const PUSH_REGISTRATIONS = 'push_registrations';

/** Zulip's DeviceInfoDict of one device (without the token kind and the entries). */
export const toApiDevice = ({ push_token_kind: _kind, push_key_entry_id: _key, registration_entry_id: _registration, ...info }: PushDeviceInfo) => info;
