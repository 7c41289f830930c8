import { Inject, Injectable } from '@nestjs/common';
import type { TokenKind } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { CredentialVault } from '../shared/credential-vault';
import { PUSH_REGISTRATIONS, type PushRegistrationDocument, toApiDevice } from './push-registration.documents';

/** What a notification sender needs to reach a user's devices: the secrets, read from the credential store. */
export type PushTargets = {
  /** E2EE registrations: the payload is encrypted with `pushKey` and sent to the bouncer with `encryptedPushRegistration`. */
  devices: { deviceId: number; pushKeyId: number; pushKey: string; tokenKind: TokenKind; encryptedPushRegistration: string }[];
  /** Legacy registrations: the provider token itself. */
  legacyTokens: { kind: TokenKind; token: string; iosAppId: string | null }[];
};

/** Reads of users' push registrations (for `POST /register`'s `devices` and the notification sender). */
@Injectable()
export class PushRegistrationQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly vault: CredentialVault,
  ) {}

  async of(realmId: number, userId: number): Promise<PushRegistrationDocument> {
    const doc = await this.readStore.get<PushRegistrationDocument>(PUSH_REGISTRATIONS, String(userId));
    return doc && doc.realm_id === realmId ? doc : { user_id: userId, realm_id: realmId, devices: {}, legacy_tokens: [] };
  }

  /**
   * The user's push registrations with their secrets, from the credential store (the read model
   * names the entries): what sends the notifications reads. A registration whose entry is gone
   * (released by a change that the read model has not caught up with) is left out.
   */
  async targets(realmId: number, userId: number): Promise<PushTargets> {
    const doc = await this.of(realmId, userId);
    const devices: PushTargets['devices'] = [];
    for (const [id, info] of Object.entries(doc.devices)) {
      if (info.push_key_id === null || info.push_token_kind === null || !info.push_key_entry_id || !info.registration_entry_id) continue;
      const pushKey = await this.vault.pushSecret(info.push_key_entry_id, 'push_key');
      const encryptedPushRegistration = await this.vault.pushSecret(info.registration_entry_id, 'push_registration');
      if (pushKey === null || encryptedPushRegistration === null) continue;
      devices.push({ deviceId: Number(id), pushKeyId: info.push_key_id, pushKey, tokenKind: info.push_token_kind, encryptedPushRegistration });
    }
    const legacyTokens: PushTargets['legacyTokens'] = [];
    for (const legacy of doc.legacy_tokens) {
      const token = legacy.token_entry_id === null ? null : await this.vault.pushSecret(legacy.token_entry_id, 'push_token');
      if (token !== null) legacyTokens.push({ kind: legacy.kind, token, iosAppId: legacy.ios_app_id });
    }
    return { devices, legacyTokens };
  }

  /** `devices` of `POST /register`: the user's device records by id (get_devices). */
  async devices(realmId: number, userId: number) {
    const { devices } = await this.of(realmId, userId);
    return Object.fromEntries(Object.entries(devices).map(([id, info]) => [id, toApiDevice(info)]));
  }
}
