import {
  CreateProfileFieldHandler,
  DeleteProfileFieldHandler,
  ReorderProfileFieldsHandler,
  UpdateProfileFieldHandler,
} from './custom-profile-field.handler';
import { CustomProfileFieldQueries } from './custom-profile-field.queries';
import { RemoveProfileDataHandler, UpdateProfileDataHandler } from './profile-data.handler';

export const CUSTOM_PROFILE_FIELDS_HANDLERS = [
  CreateProfileFieldHandler,
  UpdateProfileFieldHandler,
  DeleteProfileFieldHandler,
  ReorderProfileFieldsHandler,
  UpdateProfileDataHandler,
  RemoveProfileDataHandler,
];
export const CUSTOM_PROFILE_FIELDS_QUERIES = [CustomProfileFieldQueries];
