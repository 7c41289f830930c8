import { hash } from 'node:crypto';
import type { PushDeviceEvent } from '@app/domain';

/**
 * SHA-256 (hex) of a push key or a legacy token: what the push-device events carry instead of it,
 * for the decider to compare (a repeated registration, the token a removal names). Push keys are
 * 32 random bytes and provider tokens long random strings, so the digest gives nothing back.
 */
export const pushSecretDigest = (secret: string): string => hash('sha256', secret, 'hex');

/** The credential store entries an event puts in use. */
export function entriesNamedBy(event: PushDeviceEvent): string[] {
  switch (event.type) {
    case 'PushDeviceRegistered':
      return [event.data.pushKeyEntryId, event.data.registrationEntryId];
    case 'PushKeyRotated':
      return [event.data.pushKeyEntryId];
    case 'PushTokenRotated':
      return [event.data.registrationEntryId];
    case 'LegacyPushTokenAdded':
      return [event.data.tokenEntryId];
    default:
      return [];
  }
}

/** The entries an event ends: a replaced key or registration, a removed token or device. */
export function entriesReleasedBy(event: PushDeviceEvent): string[] {
  switch (event.type) {
    case 'PushDeviceRegistered':
    case 'PushKeyRotated':
    case 'PushTokenRotated':
    case 'ClientDeviceRemoved':
      return event.data.releasedEntryIds ?? [];
    case 'LegacyPushTokenRemoved':
      return event.data.tokenEntryId === undefined ? [] : [event.data.tokenEntryId];
    default:
      return [];
  }
}
