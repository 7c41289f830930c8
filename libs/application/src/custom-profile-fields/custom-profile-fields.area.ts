import type { Provider } from '@nestjs/common';
import { CUSTOM_PROFILE_FIELD_EVENT_TYPES, CUSTOM_PROFILE_VALUE_EVENT_TYPES, customProfileFieldsDecider, customProfileValuesDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { UserProfileData } from '../users/user-profile-data';
import { CustomProfileFieldsClientEvents } from './custom-profile-fields.client-events';
import { CustomProfileFieldsRegisterSections } from './custom-profile-fields.register';
import {
  CreateProfileFieldHandler,
  DeleteProfileFieldHandler,
  ReorderProfileFieldsHandler,
  UpdateProfileFieldHandler,
} from './custom-profile-field.handler';
import { CustomProfileFieldQueries } from './custom-profile-field.queries';
import { RemoveProfileDataHandler, UpdateProfileDataHandler } from './profile-data.handler';

const handlers: Provider[] = [
  CreateProfileFieldHandler,
  UpdateProfileFieldHandler,
  DeleteProfileFieldHandler,
  ReorderProfileFieldsHandler,
  UpdateProfileDataHandler,
  RemoveProfileDataHandler,
];
const queries: Provider[] = [CustomProfileFieldQueries];
/** The users area's seam: the `profile_data` of its `realm_user` register section. */
const userSeams: Provider[] = [{ provide: UserProfileData, useExisting: CustomProfileFieldQueries }];

/** Custom profile fields and the users' values of them. */
export const customProfileFieldsArea = defineArea({
  name: 'custom-profile-fields',
  providers: [...handlers, ...queries, ...userSeams],
  exports: queries,
  clientEvents: CustomProfileFieldsClientEvents,
  registerSections: CustomProfileFieldsRegisterSections,
  deciders: [customProfileFieldsDecider, customProfileValuesDecider],
  events: [...CUSTOM_PROFILE_FIELD_EVENT_TYPES, ...CUSTOM_PROFILE_VALUE_EVENT_TYPES],
  idSequences: [{ sequence: 'custom_profile_field', fields: ['fieldId'] }],
});
