import { deciderSpec } from '@app/testing';
import { InvalidFullNameError, userProfileDecider, type UserProfileCommand, type UserProfileEvent } from '@app/domain';

const given = deciderSpec(userProfileDecider);
const NOW = '2026-03-01T10:00:00.000Z';
const change = (fullName: string, currentName = 'King Hamlet', actorId: number | null = 3): UserProfileCommand => ({
  type: 'ChangeFullName',
  data: { realmId: 1, userId: 3, actorId, now: NOW, fullName, currentName },
});
const changed = (oldName: string, newName: string, actorId: number | null = 3): UserProfileEvent => ({
  type: 'UserFullNameChanged',
  data: { realmId: 1, userId: 3, oldName, newName, actorId, at: NOW },
});

describe('userProfileDecider (user_profile-<userId>)', () => {
  it('a first rename starts from the directory\'s copy of the name', () =>
    given([]).when(change('Prince Hamlet')).then([changed('King Hamlet', 'Prince Hamlet')]));

  it('a later rename starts from the name this stream set, whatever the directory says', () =>
    given([changed('King Hamlet', 'Prince Hamlet')]).when(change('Hamlet of Denmark', 'King Hamlet')).then([changed('Prince Hamlet', 'Hamlet of Denmark')]));

  it('the name is trimmed, and the same name again changes nothing', () => {
    given([]).when(change('  Prince Hamlet  ')).then([changed('King Hamlet', 'Prince Hamlet')]);
    given([changed('King Hamlet', 'Prince Hamlet')]).when(change('Prince Hamlet')).then([]);
    given([]).when(change('King Hamlet')).then([]);
  });

  it('records who renamed (an administrator, or the operator)', () =>
    given([]).when(change('Prince Hamlet', 'King Hamlet', 2)).then([changed('King Hamlet', 'Prince Hamlet', 2)]));

  it('refuses a bad name with Zulip\'s messages', () => {
    given([]).when(change('')).thenThrows(InvalidFullNameError, 'Name too short!');
    given([]).when(change('x'.repeat(101))).thenThrows(InvalidFullNameError, 'Name too long!');
    given([]).when(change('Hamlet|12')).thenThrows(InvalidFullNameError, 'Invalid format!');
  });
});
