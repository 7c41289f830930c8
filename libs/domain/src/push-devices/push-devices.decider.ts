import type { Decider } from '../shared/decider';
import { PushRegistrationError, PushServiceNotConfiguredError } from './push-devices.errors';
import type { PushDeviceEvent, TokenKind } from './push-devices.events';
import { checkPushKey, sameTokenId, tokenIdValue } from './push-devices.rules';

type Meta = { realmId: number; userId: number; now: string; serviceConfigured: boolean };

/**
 * `POST /mobile_push/register` (register_push_device). A fresh registration carries the push key
 * fields and the token fields; either group alone rotates the registration's key or token.
 */
export type RegisterPushDevice = {
  type: 'RegisterPushDevice';
  data: Meta & {
    deviceId: number;
    pushKey?: string;
    pushKeyId?: number;
    tokenKind?: TokenKind;
    tokenId?: string;
    bouncerPublicKey?: string;
    encryptedPushRegistration?: string;
  };
};

/** `POST /users/me/apns_device_token`, `POST /users/me/android_gcm_reg_id` (checked tokens; id computed by the handler). */
export type AddLegacyPushToken = { type: 'AddLegacyPushToken'; data: Meta & { kind: TokenKind; token: string; tokenId: string; iosAppId: string | null } };

/** `DELETE /users/me/apns_device_token`, `DELETE /users/me/android_gcm_reg_id`. */
export type RemoveLegacyPushToken = { type: 'RemoveLegacyPushToken'; data: Meta & { kind: TokenKind; token: string } };

/** `POST /register_client_device` (register_device): a new device record; the handler allocates its id. */
export type RegisterClientDevice = { type: 'RegisterClientDevice'; data: Meta & { deviceId: number } };

/** `POST /remove_client_device` (remove_device). */
export type RemoveClientDevice = { type: 'RemoveClientDevice'; data: Meta & { deviceId: number } };

export type PushDevicesCommand = RegisterPushDevice | AddLegacyPushToken | RemoveLegacyPushToken | RegisterClientDevice | RemoveClientDevice;

/** A device's E2EE push registration. */
export type PushDeviceState = { pushKey: string; pushKeyId: number; tokenKind: TokenKind; tokenId: string };
export type PushDevicesState = {
  /** The user's device records by id (Zulip's Device rows): null until the device registers for push. */
  devices: Record<number, PushDeviceState | null>;
  legacy: { kind: TokenKind; token: string; tokenId: string }[];
};

/** Legacy registrations of the token an E2EE registration now covers (compared by token id). */
const replacedLegacy = (state: PushDevicesState, d: Meta, tokenId: string): PushDeviceEvent[] =>
  state.legacy
    .filter((l) => sameTokenId(l.tokenId, tokenId))
    .map((l) => ({ type: 'LegacyPushTokenRemoved', data: { realmId: d.realmId, userId: d.userId, kind: l.kind, token: l.token, reason: 'replaced_by_e2ee', at: d.now } }));

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
  const keyFields = d.pushKey !== undefined && d.pushKeyId !== undefined;
  const tokenFields = d.tokenKind !== undefined && d.tokenId !== undefined && d.bouncerPublicKey !== undefined && d.encryptedPushRegistration !== undefined;
  if (!keyFields && !tokenFields) throw PushRegistrationError.missingParameters();
  const device = state.devices[d.deviceId];
  const base = { realmId: d.realmId, userId: d.userId, deviceId: d.deviceId, at: d.now };
  if (keyFields && !tokenFields) {
    if (!device) throw PushRegistrationError.noRegistrationForKey();
    checkPushKey(d.pushKey!);
    if (device.pushKeyId === d.pushKeyId && device.pushKey === d.pushKey) return [];
    return [{ type: 'PushKeyRotated', data: { ...base, oldPushKeyId: device.pushKeyId, pushKey: d.pushKey!, pushKeyId: d.pushKeyId! } }];
  }
  const tokenId = tokenIdValue(d.tokenId!);
  const token = { tokenKind: d.tokenKind!, tokenId: d.tokenId!, bouncerPublicKey: d.bouncerPublicKey!, encryptedPushRegistration: d.encryptedPushRegistration! };
  if (!keyFields) {
    if (!device) throw PushRegistrationError.noRegistrationForToken();
    if (tokenIdValue(device.tokenId) === tokenId) return [];
    return [{ type: 'PushTokenRotated', data: { ...base, ...token, oldTokenId: device.tokenId } }, ...replacedLegacy(state, d, d.tokenId!)];
  }
  checkPushKey(d.pushKey!);
  const unchanged = device && device.pushKeyId === d.pushKeyId && device.pushKey === d.pushKey
    && tokenIdValue(device.tokenId) === tokenId && device.tokenKind === d.tokenKind;
  if (unchanged) return [];
  return [{ type: 'PushDeviceRegistered', data: { ...base, ...token, pushKey: d.pushKey!, pushKeyId: d.pushKeyId! } }, ...replacedLegacy(state, d, d.tokenId!)];
}

/** The push registrations of one user (stream `push_devices-<userId>`). */
export const pushDevicesDecider: Decider<PushDevicesCommand, PushDeviceEvent, PushDevicesState> = {
  // Version 2: devices without a push registration (client device records) are kept as null.
  snapshot: { name: 'push-devices', version: 2 },
  initialState: () => ({ devices: {}, legacy: [] }),

  decide: (command, state) => {
    const d = command.data;
    const base = { realmId: d.realmId, userId: d.userId, at: d.now };
    switch (command.type) {
      case 'RegisterPushDevice':
        return decideRegister(command.data, state);
      case 'RegisterClientDevice':
        return [{ type: 'ClientDeviceRegistered', data: { ...base, deviceId: command.data.deviceId } }];
      case 'RemoveClientDevice':
        if (!(command.data.deviceId in state.devices)) throw PushRegistrationError.invalidDeviceId();
        return [{ type: 'ClientDeviceRemoved', data: { ...base, deviceId: command.data.deviceId } }];
      case 'AddLegacyPushToken': {
        const { kind, token, tokenId, iosAppId } = command.data;
        if (state.legacy.some((l) => l.kind === kind && l.token === token)) return [];
        return [{ type: 'LegacyPushTokenAdded', data: { ...base, kind, token, tokenId, iosAppId } }];
      }
      case 'RemoveLegacyPushToken': {
        const { kind, token } = command.data;
        if (!state.legacy.some((l) => l.kind === kind && l.token === token)) {
          // remove_push_device_token: with a push service the bouncer has the last word, so no error here.
          if (!d.serviceConfigured) throw PushRegistrationError.tokenDoesNotExist();
          return [];
        }
        return [{ type: 'LegacyPushTokenRemoved', data: { ...base, kind, token, reason: 'removed' } }];
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
        const { deviceId, pushKey, pushKeyId, tokenKind, tokenId } = event.data;
        return { ...state, devices: { ...state.devices, [deviceId]: { pushKey, pushKeyId, tokenKind, tokenId } } };
      }
      case 'PushKeyRotated': {
        const device = state.devices[event.data.deviceId];
        if (!device) return state;
        return { ...state, devices: { ...state.devices, [event.data.deviceId]: { ...device, pushKey: event.data.pushKey, pushKeyId: event.data.pushKeyId } } };
      }
      case 'PushTokenRotated': {
        const device = state.devices[event.data.deviceId];
        if (!device) return state;
        return { ...state, devices: { ...state.devices, [event.data.deviceId]: { ...device, tokenKind: event.data.tokenKind, tokenId: event.data.tokenId } } };
      }
      case 'LegacyPushTokenAdded':
        return { ...state, legacy: [...state.legacy, { kind: event.data.kind, token: event.data.token, tokenId: event.data.tokenId }] };
      case 'LegacyPushTokenRemoved':
        return { ...state, legacy: state.legacy.filter((l) => !(l.kind === event.data.kind && l.token === event.data.token)) };
      default:
        return state;
    }
  },
};
