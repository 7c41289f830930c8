import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { PUSH_REGISTRATIONS, type PushRegistrationDocument, toApiDevice } from './push-registration.documents';

/** Reads of users' push registrations (for `POST /register`'s `devices` and the notification sender). */
@Injectable()
export class PushRegistrationQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  async of(realmId: number, userId: number): Promise<PushRegistrationDocument> {
    const doc = await this.readStore.get<PushRegistrationDocument>(PUSH_REGISTRATIONS, String(userId));
    return doc && doc.realm_id === realmId ? doc : { user_id: userId, realm_id: realmId, devices: {}, legacy_tokens: [] };
  }

  /** `devices` of `POST /register`: the user's device records by id (get_devices). */
  async devices(realmId: number, userId: number) {
    const { devices } = await this.of(realmId, userId);
    return Object.fromEntries(Object.entries(devices).map(([id, info]) => [id, toApiDevice(info)]));
  }
}
