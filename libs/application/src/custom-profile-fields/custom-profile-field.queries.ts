import { Inject, Injectable } from '@nestjs/common';
import { isRenderableFieldType, type ProfileFieldFacts } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import {
  type ApiCustomProfileField,
  CUSTOM_PROFILE_FIELD_VALUES,
  CUSTOM_PROFILE_FIELDS,
  type CustomProfileFieldDocument,
  type CustomProfileFieldValuesDocument,
  formatCustomProfileField,
  type ProfileData,
} from './custom-profile-field.documents';

/**
 * Reads of the custom profile fields and values. For the users area: `profileData(realmId)` builds
 * the `profile_data` of every user of an organization at once (what `GET /users` with
 * `include_custom_profile_fields` adds), `profileDataOf(realmId, userId)` one user's.
 */
@Injectable()
export class CustomProfileFieldQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStorePort) {}

  private async fields(realmId: number): Promise<CustomProfileFieldDocument[]> {
    const fields = await this.readStore.find<CustomProfileFieldDocument>(CUSTOM_PROFILE_FIELDS, { where: { realm_id: realmId } });
    return fields.sort((a, b) => a.order - b.order || a.id - b.id);
  }

  /** custom_profile_fields_for_realm: ordered by `order`. */
  async list(realmId: number): Promise<ApiCustomProfileField[]> {
    return (await this.fields(realmId)).map(formatCustomProfileField);
  }

  /** What checking values needs to know of each field of the organization, by id. */
  async facts(realmId: number): Promise<Record<number, ProfileFieldFacts>> {
    const facts: Record<number, ProfileFieldFacts> = {};
    for (const f of await this.fields(realmId)) {
      facts[f.id] = { fieldId: f.id, name: f.name, fieldType: f.type, fieldData: f.field_data, editableByUser: f.editable_by_user };
    }
    return facts;
  }

  private values(realmId: number): Promise<CustomProfileFieldValuesDocument[]> {
    return this.readStore.find<CustomProfileFieldValuesDocument>(CUSTOM_PROFILE_FIELD_VALUES, { where: { realm_id: realmId } });
  }

  /** One user's current values by field id (as stored: Users fields as JSON text). */
  async currentValues(realmId: number, userId: number): Promise<Record<number, string>> {
    const current: Record<number, string> = {};
    for (const doc of await this.values(realmId)) {
      const entry = doc.values[String(userId)];
      if (entry) current[doc.field_id] = entry.value;
    }
    return current;
  }

  /** Zulip's get_custom_profile_field_values: every user's profile_data, by user id. */
  async profileData(realmId: number): Promise<Map<number, ProfileData>> {
    const byUser = new Map<number, ProfileData>();
    for (const doc of await this.values(realmId)) {
      for (const [userId, entry] of Object.entries(doc.values)) {
        const data = byUser.get(Number(userId)) ?? {};
        data[String(doc.field_id)] = isRenderableFieldType(doc.field_type)
          ? { value: entry.value, rendered_value: entry.rendered_value }
          : { value: entry.value };
        byUser.set(Number(userId), data);
      }
    }
    return byUser;
  }

  async profileDataOf(realmId: number, userId: number): Promise<ProfileData> {
    return (await this.profileData(realmId)).get(userId) ?? {};
  }
}
