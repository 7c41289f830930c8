import type { TokenKind } from '@app/domain';

/** An E2EE registration as Zulip's DeviceInfoDict (`devices` of `POST /register`) shows it. */
export type PushDeviceInfo = {
  push_key_id: number;
  push_token_id: string;
  push_token_kind: TokenKind;
  /** Seconds since the epoch. */
  push_token_last_updated_timestamp: number;
};

/** A user's push registrations: E2EE devices by device id, and legacy tokens. */
export type PushRegistrationDocument = {
  user_id: number;
  realm_id: number;
  devices: Record<string, PushDeviceInfo>;
  legacy_tokens: { kind: TokenKind; token: string; ios_app_id: string | null }[];
};

export const PUSH_REGISTRATIONS = 'push_registrations';
