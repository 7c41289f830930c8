import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { CustomProfileFieldQueries } from './custom-profile-field.queries';

/** `custom_profile_fields`: the organization's profile fields. */
@Injectable()
export class CustomProfileFieldsRegisterSections implements AreaRegisterSections {
  constructor(private readonly profileFields: CustomProfileFieldQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'custom_profile_fields', read: async (actor) => ({ custom_profile_fields: await this.profileFields.list(actor.realmId) }) }];
  }
}
