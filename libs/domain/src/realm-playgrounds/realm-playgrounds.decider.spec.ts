import { deciderSpec } from '@app/testing';
import {
  type Actor,
  InvalidPlaygroundError,
  InvalidPygmentsLanguageError,
  MustBeAdministratorError,
  type RealmPlaygroundEvent,
  realmPlaygroundsDecider,
  type RealmPlaygroundsCommand,
  RealmPlaygroundValidationError,
} from '@app/domain';

const given = deciderSpec(realmPlaygroundsDecider);
const AT = '2026-01-01T00:00:00.000Z';
const iago: Actor = { realmId: 1, userId: 2, role: 'administrator', isBot: false };
const desdemona: Actor = { realmId: 1, userId: 1, role: 'owner', isBot: false };

const PYTHON = { name: 'Python playground', pygmentsLanguage: 'Python', urlTemplate: 'https://python.example.com?code={code}' };
const add = (fields: Partial<typeof PYTHON> = {}, playgroundId = 7, actor = iago): RealmPlaygroundsCommand => ({
  type: 'AddRealmPlayground', data: { realmId: 1, actor, now: AT, playgroundId, ...PYTHON, ...fields },
});
const remove = (playgroundId: number, actor = iago): RealmPlaygroundsCommand => ({ type: 'RemoveRealmPlayground', data: { realmId: 1, actor, now: AT, playgroundId } });
const added = (playgroundId: number, fields: Partial<typeof PYTHON> = {}): RealmPlaygroundEvent => ({
  type: 'RealmPlaygroundAdded', data: { realmId: 1, playgroundId, ...PYTHON, ...fields, actorId: 2, at: AT },
});

describe('realmPlaygroundsDecider', () => {
  describe('AddRealmPlayground', () => {
    it('adds a playground with its values stripped', () =>
      given([])
        .when(add({ name: ' Python playground\n', pygmentsLanguage: ' Python ', urlTemplate: ' https://python.example.com?code={code} ' }))
        .then([added(7)]));

    it('lets several playgrounds serve one language, and one name several languages', () =>
      given([added(1)])
        .when(add({ name: 'Python playground 2', urlTemplate: 'https://python2.example.com/{code}' }))
        .thenMatches([{ type: 'RealmPlaygroundAdded' }]));

    it('is for administrators only', () => {
      for (const role of ['member', 'moderator', 'guest'] as const) {
        given([]).when(add({}, 7, { ...iago, role })).thenThrows(MustBeAdministratorError, 'Must be an organization administrator');
      }
      given([]).when(add({}, 7, desdemona)).thenMatches([{ type: 'RealmPlaygroundAdded' }]);
    });

    it('refuses characters check_pygments_language does not allow, before stripping', () => {
      given([]).when(add({ pygmentsLanguage: 'a$b$c' })).thenThrows(InvalidPygmentsLanguageError, 'Invalid characters in pygments language');
      given([]).when(add({ pygmentsLanguage: 'Python\n' })).thenThrows(InvalidPygmentsLanguageError);
      // `+-.` is a range in Zulip's pattern: a comma passes.
      given([]).when(add({ pygmentsLanguage: 'C++, C#/x.y_z-1' })).thenMatches([{ data: { pygmentsLanguage: 'C++, C#/x.y_z-1' } }]);
    });

    it.each([
      [{ urlTemplate: 'https://invalid-url.com/{code' }, 'Invalid URL template.', { url_template: ['Invalid URL template.'] }],
      [{ urlTemplate: 'https://python.example.com' }, 'Missing the required variable "code" in the URL template', { __all__: ['Missing the required variable "code" in the URL template'] }],
      [{ urlTemplate: 'https://python.example.com/{lang}?code={code}' }, '"code" should be the only variable present in the URL template', { __all__: ['"code" should be the only variable present in the URL template'] }],
      [{ urlTemplate: '  ' }, 'This field cannot be blank.', { url_template: ['This field cannot be blank.'], __all__: ['Missing the required variable "code" in the URL template'] }],
      [{ name: ' ', pygmentsLanguage: '' }, 'This field cannot be blank.', { name: ['This field cannot be blank.'], pygments_language: ['This field cannot be blank.'] }],
    ])("answers full_clean's errors by field: %j", (fields, message, errors) => {
      given([]).when(add(fields)).thenThrows(RealmPlaygroundValidationError, message);
      let thrown: unknown;
      try {
        realmPlaygroundsDecider.decide(add(fields), realmPlaygroundsDecider.initialState());
      } catch (error) {
        thrown = error;
      }
      expect((thrown as RealmPlaygroundValidationError).errors).toEqual(errors);
    });

    it('refuses the same language and name twice', () =>
      given([added(1)])
        .when(add({ urlTemplate: 'https://other.example.com/{code}' }))
        .thenThrows(RealmPlaygroundValidationError, 'Realm playground with this Realm, Pygments language and Name already exists.'));
  });

  describe('RemoveRealmPlayground', () => {
    it('removes it, recording what it was', () =>
      given([added(1), added(2, { name: 'Other' })])
        .when(remove(1))
        .then([{ type: 'RealmPlaygroundRemoved', data: { realmId: 1, playgroundId: 1, ...PYTHON, actorId: 2, at: AT } }]));

    it('answers "Invalid playground" for one that does not exist (any more)', () => {
      given([]).when(remove(1)).thenThrows(InvalidPlaygroundError, 'Invalid playground');
      given([added(1), { type: 'RealmPlaygroundRemoved', data: { realmId: 1, playgroundId: 1, ...PYTHON, actorId: 2, at: AT } }]).when(remove(1)).thenThrows(InvalidPlaygroundError);
    });

    it('is for administrators only', () => given([added(1)]).when(remove(1, { ...iago, role: 'member' })).thenThrows(MustBeAdministratorError));
  });
});
