import { codePointLength, pythonStrip } from '../shared/printable-text';
import { InvalidUserGroupNameError } from './user-groups.errors';

/** NamedUserGroup.MAX_NAME_LENGTH. */
export const MAX_USER_GROUP_NAME_LENGTH = 100;
/** NamedUserGroup.INVALID_NAME_PREFIXES: names that would read as a system group or a reference. */
export const INVALID_USER_GROUP_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'] as const;

/** check_user_group_name: not blank, within the limit, no reserved prefix. */
export function checkUserGroupName(name: string): string {
  if (pythonStrip(name) === '') throw InvalidUserGroupNameError.empty();
  if (codePointLength(name) > MAX_USER_GROUP_NAME_LENGTH) throw InvalidUserGroupNameError.tooLong(MAX_USER_GROUP_NAME_LENGTH);
  for (const prefix of INVALID_USER_GROUP_NAME_PREFIXES) if (name.startsWith(prefix)) throw InvalidUserGroupNameError.invalidPrefix(prefix);
  return name;
}
