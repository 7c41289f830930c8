import { Injectable } from '@nestjs/common';
import type { RealmDeactivated, RealmGroupSettingChanged, RealmPropertyChanged } from '@app/domain';
import { SystemGroupIds } from '../shared/system-group-ids';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toRealm } from '../events/deliveries';

/** `realm` events (zerver/actions/realm_settings.py) to everyone in the organization. */
@Injectable()
export class RealmsClientEvents implements AreaClientEvents {
  constructor(private readonly groupIds: SystemGroupIds) {}

  clientEvents(): ClientEventMapperList {
    return {
      RealmPropertyChanged: (e: Recorded<RealmPropertyChanged>, c) => this.realmProperty(e, c),
      RealmGroupSettingChanged: (e: Recorded<RealmGroupSettingChanged>, c) => this.realmGroupSetting(e, c),
      // do_deactivate_realm: clients log out on it.
      RealmDeactivated: (e: Recorded<RealmDeactivated>, c) => toRealm(c, e.data.realmId, { type: 'realm', op: 'deactivated', realm_id: e.data.realmId }),
    };
  }

  /** do_set_realm_property: `update` for a plain property, `update_dict` for the messaging-edit settings. */
  private realmProperty(e: Recorded<RealmPropertyChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    // do_set_realm_property: `update` for plain properties; update_dict only for the message-edit settings.
    // do_set_realm_stream: moderation_request_channel_id as `update` too (-1: none); message_retention_days: -1 is "unlimited".
    const plain = ['name', 'description', 'enable_read_receipts', 'moderation_request_channel_id', 'email_changes_disabled', 'message_retention_days'];
    if (plain.includes(d.property)) {
      return toRealm(c, d.realmId, { type: 'realm', op: 'update', property: d.property, value: d.newValue });
    }
    const data: Record<string, unknown> = { [d.property]: d.newValue };
    // topics_policy replaced mandatory_topics (feature level 392); Zulip keeps the legacy key in step.
    if (d.property === 'topics_policy') data.mandatory_topics = d.newValue === 'disable_empty_topic';
    return toRealm(c, d.realmId, { type: 'realm', op: 'update_dict', property: 'default', data });
  }

  /** do_change_realm_permission_group_setting: `update_dict` with the group's id. */
  private async realmGroupSetting(e: Recorded<RealmGroupSettingChanged>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const ids = await this.groupIds.forRealm(d.realmId);
    return toRealm(c, d.realmId, { type: 'realm', op: 'update_dict', property: 'default', data: { [d.setting]: ids[d.newValue] } });
  }
}
