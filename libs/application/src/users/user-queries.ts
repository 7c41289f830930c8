import { Inject, Injectable } from '@nestjs/common';
import { normalizeEmail } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { CREDENTIALS, USERS, type CredentialDocument, type UserDocument } from './user.documents';

/** Reads of the users and credentials read models. */
@Injectable()
export class UserQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  list(realmId: number, options: { includeDeactivated?: boolean } = {}): Promise<UserDocument[]> {
    return this.readStore.find<UserDocument>(USERS, {
      where: { realm_id: realmId, ...(options.includeDeactivated === false ? { is_active: true } : {}) },
      orderBy: [{ field: 'user_id', direction: 'asc' }],
    });
  }

  async byId(realmId: number, userId: number): Promise<UserDocument | null> {
    const user = await this.readStore.get<UserDocument>(USERS, String(userId));
    return user && user.realm_id === realmId ? user : null;
  }

  async byEmail(realmId: number, email: string): Promise<UserDocument | null> {
    const credential = await this.credentialsByEmail(realmId, email);
    return credential ? this.byId(realmId, credential.user_id) : null;
  }

  async credentialsByEmail(realmId: number, email: string): Promise<CredentialDocument | null> {
    const [credential] = await this.readStore.find<CredentialDocument>(CREDENTIALS, {
      where: { realm_id: realmId, email_lower: normalizeEmail(email) },
      limit: 1,
    });
    return credential ?? null;
  }

  credentialsById(userId: number): Promise<CredentialDocument | null> {
    return this.readStore.get<CredentialDocument>(CREDENTIALS, String(userId));
  }
}
