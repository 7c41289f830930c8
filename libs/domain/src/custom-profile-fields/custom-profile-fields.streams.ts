/**
 * The custom profile fields of an organization live on one stream, `custom_profile_fields-<realmId>`:
 * labels are unique per organization, at most two fields are shown in the profile summary, and a
 * reorder touches every field.
 *
 * A user's values live on `custom_profile_values-<userId>`: each user edits their own profile, so
 * users never contend with one another. The facts a value is checked against (the field's type and
 * choices, the users a Users field names) come from the read models with the command.
 */
export const customProfileFieldsStream = (realmId: number) => `custom_profile_fields-${realmId}`;
export const customProfileValuesStream = (userId: number) => `custom_profile_values-${userId}`;
