import type { Decider } from '../shared/decider';
import { PushRegistrationError, PushServiceNotConfiguredError } from './push-devices.errors';
import type { PushDeviceEvent, TokenKind } from './push-devices.events';
import { checkPushKey, sameTokenId, tokenIdValue } from './push-devices.rules';

type Meta = { realmId: number; userId: number; now: string; serviceConfigured: boolean };

/**
 * `POST /mobile_push/register` (register_push_device). A fresh registration carries the push key
 * fields and the token fields; either group alone rotates the registration's key or token. The
 * handler has already put the secrets in the credential store: the command names their entries
 * (`pushKeyEntryId`, `registrationEntryId`, present when the client sent the push key and the
 * encrypted registration) and carries the push key itself only to be checked.
 */
export type RegisterPushDevice = {
  type: 'RegisterPushDevice';
  data: Meta & {
    deviceId: number;
    pushKey?: string;
    pushKeyDigest?: string;
    pushKeyEntryId?: string;
    pushKeyId?: number;
    tokenKind?: TokenKind;
    tokenId?: string;
    bouncerPublicKey?: string;
    registrationEntryId?: string;
  };
};

/**
 * `POST /users/me/apns_device_token`, `POST /users/me/android_gcm_reg_id` (checked tokens; the
 * handler stored the token under `tokenEntryId` and computed its digest and id).
 */
export type AddLegacyPushToken = {
  type: 'AddLegacyPushToken';
  data: Meta & { kind: TokenKind; tokenDigest: string; tokenEntryId: string; tokenId: string; iosAppId: string | null };
};

/** `DELETE /users/me/apns_device_token`, `DELETE /users/me/android_gcm_reg_id`: the token named by its digest. */
export type RemoveLegacyPushToken = { type: 'RemoveLegacyPushToken'; data: Meta & { kind: TokenKind; tokenDigest: string } };

/** `POST /register_client_device` (register_device): a new device record; the handler allocates its id. */
export type RegisterClientDevice = { type: 'RegisterClientDevice'; data: Meta & { deviceId: number } };

/** `POST /remove_client_device` (remove_device). */
export type RemoveClientDevice = { type: 'RemoveClientDevice'; data: Meta & { deviceId: number } };

export type PushDevicesCommand = RegisterPushDevice | AddLegacyPushToken | RemoveLegacyPushToken | RegisterClientDevice | RemoveClientDevice;

/** A device's E2EE push registration: digests and entry names, never the secrets (snapshots store this). */
export type PushDeviceState = { pushKeyDigest: string; pushKeyEntryId: string; pushKeyId: number; tokenKind: TokenKind; tokenId: string; registrationEntryId: string };
export type LegacyTokenState = { kind: TokenKind; tokenDigest: string; tokenEntryId: string; tokenId: string };
export type PushDevicesState = {
  /** The user's device records by id (Zulip's Device rows): null until the device registers for push. */
  devices: Record<number, PushDeviceState | null>;
  legacy: LegacyTokenState[];
};

const removal = (d: Meta, l: LegacyTokenState, reason: 'removed' | 'replaced_by_e2ee'): PushDeviceEvent => ({
  type: 'LegacyPushTokenRemoved',
  data: { realmId: d.realmId, userId: d.userId, kind: l.kind, tokenDigest: l.tokenDigest, tokenEntryId: l.tokenEntryId, reason, at: d.now },
});

/** Legacy registrations of the token an E2EE registration now covers (compared by token id). */
const replacedLegacy = (state: PushDevicesState, d: Meta, tokenId: string): PushDeviceEvent[] =>
  state.legacy.filter((l) => sameTokenId(l.tokenId, tokenId)).map((l) => removal(d, l, 'replaced_by_e2ee'));

const sameLegacy = (l: { kind: TokenKind; tokenDigest: string }, kind: TokenKind, tokenDigest: string) => l.kind === kind && l.tokenDigest === tokenDigest;

/**
 * register_push_device, in Zulip's order of checks. Zulip then hands the token to the bouncer in a
 * queue worker and refuses another token while that is pending ("A registration for the device
 * already in progress."); here the registration is complete within the request (see the client
 * events: `pending_push_token_id` is set, then moves to `push_token_id`), so nothing is ever pending
 * between two requests.
 */
function decideRegister(d: RegisterPushDevice['data'], state: PushDevicesState): PushDeviceEvent[] {
  if (!d.serviceConfigured) throw new PushServiceNotConfiguredError();
  if (!(d.deviceId in state.devices)) throw PushRegistrationError.invalidDeviceId();
  const keyFields = d.pushKey !== undefined && d.pushKeyId !== undefined && d.pushKeyDigest !== undefined && d.pushKeyEntryId !== undefined;
  const tokenFields = d.tokenKind !== undefined && d.tokenId !== undefined && d.bouncerPublicKey !== undefined && d.registrationEntryId !== undefined;
  if (!keyFields && !tokenFields) throw PushRegistrationError.missingParameters();
  const device = state.devices[d.deviceId];
  const base = { realmId: d.realmId, userId: d.userId, deviceId: d.deviceId, at: d.now };
  const key = { pushKeyEntryId: d.pushKeyEntryId!, pushKeyDigest: d.pushKeyDigest!, pushKeyId: d.pushKeyId! };
  if (keyFields && !tokenFields) {
    if (!device) throw PushRegistrationError.noRegistrationForKey();
    checkPushKey(d.pushKey!);
    if (device.pushKeyId === d.pushKeyId && device.pushKeyDigest === d.pushKeyDigest) return [];
    return [{ type: 'PushKeyRotated', data: { ...base, oldPushKeyId: device.pushKeyId, ...key, releasedEntryIds: [device.pushKeyEntryId] } }];
  }
  const tokenId = tokenIdValue(d.tokenId!);
  const token = { tokenKind: d.tokenKind!, tokenId: d.tokenId!, bouncerPublicKey: d.bouncerPublicKey!, registrationEntryId: d.registrationEntryId! };
  if (!keyFields) {
    if (!device) throw PushRegistrationError.noRegistrationForToken();
    if (tokenIdValue(device.tokenId) === tokenId) return [];
    return [
      { type: 'PushTokenRotated', data: { ...base, ...token, oldTokenId: device.tokenId, releasedEntryIds: [device.registrationEntryId] } },
      ...replacedLegacy(state, d, d.tokenId!),
    ];
  }
  checkPushKey(d.pushKey!);
  const unchanged = device && device.pushKeyId === d.pushKeyId && device.pushKeyDigest === d.pushKeyDigest
    && tokenIdValue(device.tokenId) === tokenId && device.tokenKind === d.tokenKind;
  if (unchanged) return [];
  return [
    { type: 'PushDeviceRegistered', data: { ...base, ...token, ...key, releasedEntryIds: device ? [device.pushKeyEntryId, device.registrationEntryId] : [] } },
    ...replacedLegacy(state, d, d.tokenId!),
  ];
}

/** The push registrations of one user (stream `push_devices-<userId>`). */
export const pushDevicesDecider: Decider<PushDevicesCommand, PushDeviceEvent, PushDevicesState> = {
  // Version 2: devices without a push registration (client device records) are kept as null.
  // Version 3: digests and credential store entries instead of push keys and tokens.
  snapshot: { name: 'push-devices', version: 3 },
  initialState: () => ({ devices: {}, legacy: [] }),

  decide: (command, state) => {
    const d = command.data;
    const base = { realmId: d.realmId, userId: d.userId, at: d.now };
    switch (command.type) {
      case 'RegisterPushDevice':
        return decideRegister(command.data, state);
      case 'RegisterClientDevice':
        return [{ type: 'ClientDeviceRegistered', data: { ...base, deviceId: command.data.deviceId } }];
      case 'RemoveClientDevice': {
        const { deviceId } = command.data;
        if (!(deviceId in state.devices)) throw PushRegistrationError.invalidDeviceId();
        const device = state.devices[deviceId];
        const releasedEntryIds = device ? [device.pushKeyEntryId, device.registrationEntryId] : [];
        return [{ type: 'ClientDeviceRemoved', data: { ...base, deviceId, releasedEntryIds } }];
      }
      case 'AddLegacyPushToken': {
        const { kind, tokenDigest, tokenEntryId, tokenId, iosAppId } = command.data;
        if (state.legacy.some((l) => sameLegacy(l, kind, tokenDigest))) return [];
        return [{ type: 'LegacyPushTokenAdded', data: { ...base, kind, tokenEntryId, tokenDigest, tokenId, iosAppId } }];
      }
      case 'RemoveLegacyPushToken': {
        const { kind, tokenDigest } = command.data;
        const registered = state.legacy.find((l) => sameLegacy(l, kind, tokenDigest));
        if (!registered) {
          // remove_push_device_token: with a push service the bouncer has the last word, so no error here.
          if (!d.serviceConfigured) throw PushRegistrationError.tokenDoesNotExist();
          return [];
        }
        return [removal(d, registered, 'removed')];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'ClientDeviceRegistered':
        return { ...state, devices: { ...state.devices, [event.data.deviceId]: null } };
      case 'ClientDeviceRemoved': {
        const devices = { ...state.devices };
        delete devices[event.data.deviceId];
        return { ...state, devices };
      }
      // Also makes the device known: registrations recorded before feature level 468 named a device
      // the client chose, with no ClientDeviceRegistered before them.
      case 'PushDeviceRegistered': {
        const { deviceId, pushKeyDigest, pushKeyEntryId, pushKeyId, tokenKind, tokenId, registrationEntryId } = event.data;
        return { ...state, devices: { ...state.devices, [deviceId]: { pushKeyDigest, pushKeyEntryId, pushKeyId, tokenKind, tokenId, registrationEntryId } } };
      }
      case 'PushKeyRotated': {
        const device = state.devices[event.data.deviceId];
        if (!device) return state;
        const { pushKeyDigest, pushKeyEntryId, pushKeyId } = event.data;
        return { ...state, devices: { ...state.devices, [event.data.deviceId]: { ...device, pushKeyDigest, pushKeyEntryId, pushKeyId } } };
      }
      case 'PushTokenRotated': {
        const device = state.devices[event.data.deviceId];
        if (!device) return state;
        const { tokenKind, tokenId, registrationEntryId } = event.data;
        return { ...state, devices: { ...state.devices, [event.data.deviceId]: { ...device, tokenKind, tokenId, registrationEntryId } } };
      }
      case 'LegacyPushTokenAdded': {
        const { kind, tokenDigest, tokenEntryId, tokenId } = event.data;
        return { ...state, legacy: [...state.legacy, { kind, tokenDigest, tokenEntryId, tokenId }] };
      }
      case 'LegacyPushTokenRemoved':
        return { ...state, legacy: state.legacy.filter((l) => !sameLegacy(l, event.data.kind, event.data.tokenDigest)) };
      default:
        return state;
    }
  },
};
