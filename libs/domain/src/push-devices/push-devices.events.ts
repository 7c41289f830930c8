export type TokenKind = 'fcm' | 'apns';

/**
 * The secrets of a push registration (the E2EE push key, the registration encrypted for the push
 * bouncer, a legacy provider token) are kept in the credential store, never in an event
 * (docs/security.md, "Where secrets live"): the events name the entries holding them
 * (`…EntryId`) and carry only what the decider and the projections compare, the secret's SHA-256
 * (`…Digest`, hex). Schema version 2; version 1 carried the secrets themselves (upcast on read,
 * libs/application/src/push-devices/legacy-push-secrets.ts).
 */

/** An E2EE push registration (do_register_push_device): both the push key and the token fields. */
export type PushDeviceRegistered = {
  type: 'PushDeviceRegistered';
  data: {
    realmId: number;
    userId: number;
    deviceId: number;
    /** The credential store entry holding the push key (standard Base64 of its 33 bytes, as the client sent it). */
    pushKeyEntryId: string;
    /** SHA-256 (hex) of the push key: a repeated registration with the same key changes nothing. */
    pushKeyDigest: string;
    pushKeyId: number;
    tokenKind: TokenKind;
    /** Standard Base64 of the first 8 bytes of the SHA-256 of the provider's token. */
    tokenId: string;
    bouncerPublicKey: string;
    /** The credential store entry holding the registration encrypted for the bouncer. */
    registrationEntryId: string;
    /** Entries of the device's previous registration, which this one ends (removed from the store). */
    releasedEntryIds: string[];
    at: string;
  };
};

/** do_rotate_push_key. */
export type PushKeyRotated = {
  type: 'PushKeyRotated';
  data: {
    realmId: number;
    userId: number;
    deviceId: number;
    oldPushKeyId: number;
    pushKeyEntryId: string;
    pushKeyDigest: string;
    pushKeyId: number;
    /** The previous key's entry. */
    releasedEntryIds: string[];
    at: string;
  };
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
    registrationEntryId: string;
    /** The previous registration's entry. */
    releasedEntryIds: string[];
    at: string;
  };
};

/** A legacy (non-E2EE) registration: `POST /users/me/apns_device_token` or `/users/me/android_gcm_reg_id`. */
export type LegacyPushTokenAdded = {
  type: 'LegacyPushTokenAdded';
  data: {
    realmId: number;
    userId: number;
    kind: TokenKind;
    /** The credential store entry holding the token (APNs tokens lower-cased). */
    tokenEntryId: string;
    /** SHA-256 (hex) of the token: how a removal names it. */
    tokenDigest: string;
    tokenId: string;
    iosAppId: string | null;
    at: string;
  };
};

/** A legacy registration removed by its user, or replaced by an E2EE registration of the same token (feature level 483). */
export type LegacyPushTokenRemoved = {
  type: 'LegacyPushTokenRemoved';
  data: {
    realmId: number;
    userId: number;
    kind: TokenKind;
    tokenDigest: string;
    /** The entry the removal ends (absent from events of version 1, whose tokens the migration stored under their adds' names). */
    tokenEntryId?: string;
    reason: 'removed' | 'replaced_by_e2ee';
    at: string;
  };
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
  /** `releasedEntryIds`: the entries of the device's push registration (absent before push secrets left the log). */
  data: { realmId: number; userId: number; deviceId: number; releasedEntryIds?: string[]; at: string };
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
