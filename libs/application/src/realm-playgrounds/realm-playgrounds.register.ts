import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { RealmPlaygroundQueries } from './realm-playground.queries';

/** `realm_playgrounds`: the organization's code playgrounds, for every user. */
@Injectable()
export class RealmPlaygroundsRegisterSections implements AreaRegisterSections {
  constructor(private readonly playgrounds: RealmPlaygroundQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'realm_playgrounds', read: async (actor) => ({ realm_playgrounds: await this.playgrounds.list(actor.realmId) }) }];
  }
}
