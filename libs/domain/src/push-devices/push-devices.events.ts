export type TokenKind = 'fcm' | 'apns';

/** An E2EE push registration (do_register_push_device): both the push key and the token fields. */
export type PushDeviceRegistered = {
  type: 'PushDeviceRegistered';
  data: {
    realmId: number;
    userId: number;
    deviceId: number;
    /** Standard Base64 of the 33-byte key, as the client sent it. */
    pushKey: string;
    pushKeyId: number;
    tokenKind: TokenKind;
    /** Standard Base64 of the first 8 bytes of the SHA-256 of the provider's token. */
    tokenId: string;
    bouncerPublicKey: string;
    encryptedPushRegistration: string;
    at: string;
  };
};

/** do_rotate_push_key. */
export type PushKeyRotated = {
  type: 'PushKeyRotated';
  data: { realmId: number; userId: number; deviceId: number; oldPushKeyId: number; pushKey: string; pushKeyId: number; at: string };
};

/** do_rotate_token. */
export type PushTokenRotated = {
  type: 'PushTokenRotated';
  data: {
    realmId: number;
    userId: number;
    deviceId: number;
    oldTokenId: string;
    tokenKind: TokenKind;
    tokenId: string;
    bouncerPublicKey: string;
    encryptedPushRegistration: string;
    at: string;
  };
};

/** A legacy (non-E2EE) registration: `POST /users/me/apns_device_token` or `/users/me/android_gcm_reg_id`. */
export type LegacyPushTokenAdded = {
  type: 'LegacyPushTokenAdded';
  data: { realmId: number; userId: number; kind: TokenKind; token: string; tokenId: string; iosAppId: string | null; at: string };
};

/** A legacy registration removed by its user, or replaced by an E2EE registration of the same token (feature level 483). */
export type LegacyPushTokenRemoved = {
  type: 'LegacyPushTokenRemoved';
  data: { realmId: number; userId: number; kind: TokenKind; token: string; reason: 'removed' | 'replaced_by_e2ee'; at: string };
};

/**
 * do_register_device (`POST /register_client_device`, feature level 468): a logged-in client's
 * device record, with no push registration yet. The id comes from the server-wide sequence
 * `client_device`, as Zulip's Device ids are global.
 */
export type ClientDeviceRegistered = {
  type: 'ClientDeviceRegistered';
  data: { realmId: number; userId: number; deviceId: number; at: string };
};

/** do_remove_device (`POST /remove_client_device`, feature level 470): the record and its push registration go. */
export type ClientDeviceRemoved = {
  type: 'ClientDeviceRemoved';
  data: { realmId: number; userId: number; deviceId: number; at: string };
};

export type PushDeviceEvent =
  | ClientDeviceRegistered
  | ClientDeviceRemoved
  | PushDeviceRegistered
  | PushKeyRotated
  | PushTokenRotated
  | LegacyPushTokenAdded
  | LegacyPushTokenRemoved;

export const PUSH_DEVICE_EVENT_TYPES: readonly PushDeviceEvent['type'][] = [
  'ClientDeviceRegistered',
  'ClientDeviceRemoved',
  'PushDeviceRegistered',
  'PushKeyRotated',
  'PushTokenRotated',
  'LegacyPushTokenAdded',
  'LegacyPushTokenRemoved',
];
