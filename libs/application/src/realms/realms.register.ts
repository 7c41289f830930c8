import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/domain';
import { SystemGroupIds } from '../channels/system-group-ids';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { RealmQueries, realmGroupSettingsOf, realmMessagingSettingsOf } from './realm.queries';

/** `realm`: the realm_* keys that events of type `realm` (update / update_dict) change. */
@Injectable()
export class RealmsRegisterSections implements AreaRegisterSections {
  constructor(
    private readonly realms: RealmQueries,
    private readonly groupIds: SystemGroupIds,
  ) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'realm', read: (actor) => this.realm(actor) }];
  }

  private async realm(actor: Actor): Promise<Record<string, unknown>> {
    const realm = await this.realms.mustFindById(actor.realmId);
    const ids = await this.groupIds.forRealm(actor.realmId);
    const out: Record<string, unknown> = { realm_name: realm.name, realm_description: realm.description };
    for (const [key, value] of Object.entries(realmMessagingSettingsOf(realm))) out[`realm_${key}`] = value;
    for (const [key, group] of Object.entries(realmGroupSettingsOf(realm))) out[`realm_${key}`] = ids[group as keyof typeof ids];
    return out;
  }
}
