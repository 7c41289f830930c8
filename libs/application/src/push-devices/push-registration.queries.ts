import { Inject, Injectable } from '@nestjs/common';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { PUSH_REGISTRATIONS, type PushRegistrationDocument } from './push-registration.documents';

/** Reads of users' push registrations (for `POST /register`'s `devices` and the notification sender). */
@Injectable()
export class PushRegistrationQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  async of(realmId: number, userId: number): Promise<PushRegistrationDocument> {
    const doc = await this.readStore.get<PushRegistrationDocument>(PUSH_REGISTRATIONS, String(userId));
    return doc && doc.realm_id === realmId ? doc : { user_id: userId, realm_id: realmId, devices: {}, legacy_tokens: [] };
  }
}
