import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { PushRegistrationQueries } from './push-registration.queries';

/** `devices` (fetch type `device`, feature level 468): the user's device records and their push registrations. */
@Injectable()
export class PushDevicesRegisterSections implements AreaRegisterSections {
  constructor(private readonly registrations: PushRegistrationQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'device', read: async (actor) => ({ devices: await this.registrations.devices(actor.realmId, actor.userId!) }) }];
  }
}
