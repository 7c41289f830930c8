/**
 * Every user's custom profile field values (`profile_data`) of an organization, for the `realm_user`
 * register section. A seam: the custom-profile-fields area, above this one, binds its queries to it
 * (custom-profile-fields.area.ts).
 */
export abstract class UserProfileData {
  abstract profileData(realmId: number): Promise<Map<number, Record<string, { value: string; rendered_value?: string | null }>>>;
}
