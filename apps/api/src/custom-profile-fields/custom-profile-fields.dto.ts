import { shapes } from '../http/params/json-shapes';
import { BoolParam, IntParam, JsonParam, StringParam } from '../http/params/param.decorators';

const fieldData = shapes.dict(shapes.any());

/** POST /realm/profile_fields (create_realm_custom_profile_field). */
export class CreateProfileFieldDto {
  @BoolParam({ optional: true, description: 'Show the field in the profile summary (at most 2 fields).' })
  display_in_profile_summary?: boolean;

  @BoolParam({ optional: true, description: 'Default true: users may edit their own value.' })
  editable_by_user?: boolean;

  @JsonParam(fieldData, { optional: true, description: 'Choices of a List of options field; the subtype (and URL pattern) of an External account field.' })
  field_data?: Record<string, unknown>;

  @IntParam({ description: '1 Short text, 2 Long text, 3 List of options, 4 Date, 5 Link, 6 Users, 7 External account, 8 Pronouns.' })
  field_type!: number;

  @StringParam({ optional: true, description: 'Help text (at most 80 characters).' })
  hint?: string;

  @StringParam({ optional: true, description: 'The label (at most 40 characters).' })
  name?: string;

  @BoolParam({ optional: true, description: 'Whether users must fill the field in.' })
  required?: boolean;

  @BoolParam({ optional: true, description: 'Use the field to match users in typeahead (Short text and External account only).' })
  use_for_user_matching?: boolean;
}

/** PATCH /realm/profile_fields/{field_id} (update_realm_custom_profile_field): what is given changes. */
export class UpdateProfileFieldDto {
  @BoolParam({ optional: true, description: 'Show the field in the profile summary.' })
  display_in_profile_summary?: boolean;

  @BoolParam({ optional: true, description: 'Users may edit their own value.' })
  editable_by_user?: boolean;

  @JsonParam(fieldData, { optional: true, description: 'New choices, or external account data.' })
  field_data?: Record<string, unknown>;

  @StringParam({ optional: true, description: 'New help text.' })
  hint?: string;

  @StringParam({ optional: true, description: 'New label.' })
  name?: string;

  @BoolParam({ optional: true, description: 'Whether users must fill the field in.' })
  required?: boolean;

  @BoolParam({ optional: true, description: 'Use the field to match users in typeahead.' })
  use_for_user_matching?: boolean;
}

/** PATCH /realm/profile_fields (reorder_realm_custom_profile_fields). */
export class ReorderProfileFieldsDto {
  @JsonParam(shapes.list(shapes.int()), { description: 'The ids of every field, in the new order.' })
  order!: number[];
}

/** PATCH /users/me/profile_data (update_user_custom_profile_data). */
export class UpdateProfileDataDto {
  @JsonParam(shapes.list(shapes.object({ id: shapes.int(), value: shapes.union<unknown>(shapes.string(), shapes.list(shapes.int())) })), {
    description: 'Values to set: [{"id": field id, "value": text, or user ids for a Users field}].',
  })
  data!: { id: number; value: string | number[] }[];
}

/** DELETE /users/me/profile_data (remove_user_custom_profile_data). */
export class RemoveProfileDataDto {
  @JsonParam(shapes.list(shapes.int()), { description: 'Ids of the fields whose values to remove.' })
  data!: number[];
}
