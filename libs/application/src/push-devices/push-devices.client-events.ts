import { Injectable } from '@nestjs/common';
import { type ClientDeviceRegistered, type ClientDeviceRemoved, type PushDeviceRegistered, type PushKeyRotated, type PushTokenRotated, unixSeconds } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toUser } from '../events/deliveries';

/**
 * `device` events to the device's owner (feature level 468): zerver/actions/devices.py
 * (add, remove) and zerver/actions/push_notifications.py (update). A registration or token
 * rotation is Zulip's two updates: the token is pending (with its timestamp and a cleared error
 * code), then the push service has it (`push_token_id`, `pending_push_token_id: null`); Zulip's
 * second one comes from the worker that registers the token at the bouncer, here from the same
 * request, as nothing is sent to a bouncer (docs/administration.md).
 */
@Injectable()
export class PushDevicesClientEvents implements AreaClientEvents {
  clientEvents(): ClientEventMapperList {
    return {
      ClientDeviceRegistered: (e: Recorded<ClientDeviceRegistered>) => toUser(e.data.userId, { type: 'device', op: 'add', device_id: e.data.deviceId }),
      ClientDeviceRemoved: (e: Recorded<ClientDeviceRemoved>) => toUser(e.data.userId, { type: 'device', op: 'remove', device_id: e.data.deviceId }),
      PushDeviceRegistered: (e: Recorded<PushDeviceRegistered>) => tokenUpdates(e.data, { push_key_id: e.data.pushKeyId }),
      PushKeyRotated: (e: Recorded<PushKeyRotated>) => toUser(e.data.userId, { type: 'device', op: 'update', device_id: e.data.deviceId, push_key_id: e.data.pushKeyId }),
      PushTokenRotated: (e: Recorded<PushTokenRotated>) => tokenUpdates(e.data),
    };
  }
}

/** do_register_push_device / do_rotate_token, then the registration's completion. */
function tokenUpdates(d: { userId: number; deviceId: number; tokenId: string; at: string }, key: { push_key_id?: number } = {}): ClientEventDelivery[] {
  return [
    ...toUser(d.userId, {
      type: 'device', op: 'update', device_id: d.deviceId, ...key,
      pending_push_token_id: d.tokenId, push_token_last_updated_timestamp: unixSeconds(d.at), push_registration_error_code: null,
    }),
    ...toUser(d.userId, { type: 'device', op: 'update', device_id: d.deviceId, push_token_id: d.tokenId, pending_push_token_id: null }),
  ];
}
