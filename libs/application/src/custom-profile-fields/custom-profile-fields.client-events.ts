import { Injectable } from '@nestjs/common';
import type { CustomProfileFieldValueChanged, CustomProfileFieldValueRemoved } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toRealm } from '../events/deliveries';
import type { RecordedEvent } from '../ports/event-store.port';
import { CustomProfileFieldQueries } from './custom-profile-field.queries';

type RealmFieldsChanged = RecordedEvent<string, { realmId: number }>;

/**
 * notify_realm_custom_profile_fields (the whole current field list) and
 * notify_user_update_custom_profile_data (a user's value, as a `realm_user` update), to everyone
 * in the organization.
 */
@Injectable()
export class CustomProfileFieldsClientEvents implements AreaClientEvents {
  constructor(private readonly profileFields: CustomProfileFieldQueries) {}

  clientEvents(): ClientEventMapperList {
    return {
      CustomProfileFieldCreated: (e: RealmFieldsChanged, c) => this.fieldsChanged(e.data.realmId, c),
      CustomProfileFieldUpdated: (e: RealmFieldsChanged, c) => this.fieldsChanged(e.data.realmId, c),
      CustomProfileFieldDeleted: (e: RealmFieldsChanged, c) => this.fieldsChanged(e.data.realmId, c),
      CustomProfileFieldsReordered: (e: RealmFieldsChanged, c) => this.fieldsChanged(e.data.realmId, c),
      CustomProfileFieldValueChanged: (e: Recorded<CustomProfileFieldValueChanged>, c) =>
        this.valueChanged(e.data.realmId, e.data.userId, {
          id: e.data.fieldId,
          value: e.data.newValue,
          ...(e.data.renderedValue !== null ? { rendered_value: e.data.renderedValue } : {}),
        }, c),
      CustomProfileFieldValueRemoved: (e: Recorded<CustomProfileFieldValueRemoved>, c) =>
        this.valueChanged(e.data.realmId, e.data.userId, { id: e.data.fieldId, value: null }, c),
    };
  }

  private async fieldsChanged(realmId: number, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return toRealm(c, realmId, { type: 'custom_profile_fields', fields: await this.profileFields.list(realmId) });
  }

  private valueChanged(realmId: number, userId: number, field: Record<string, unknown>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    return toRealm(c, realmId, { type: 'realm_user', op: 'update', person: { user_id: userId, custom_profile_field: field } });
  }
}
