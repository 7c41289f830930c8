import { deciderSpec } from '@app/testing';
import {
  type Actor,
  DuplicatedLinkifiersError,
  IncompleteLinkifierOrderError,
  type LinkifierEvent,
  LinkifierNotFoundError,
  linkifiersDecider,
  type LinkifiersCommand,
  LinkifierValidationError,
  MustBeAdministratorError,
} from '@app/domain';

const given = deciderSpec(linkifiersDecider);
const AT = '2026-01-01T00:00:00.000Z';
const iago: Actor = { realmId: 1, userId: 2, role: 'administrator', isBot: false };
const hamlet: Actor = { realmId: 1, userId: 10, role: 'member', isBot: false };

const add = (pattern: string, urlTemplate: string, linkifierId = 7, actor = iago): LinkifiersCommand => ({
  type: 'AddLinkifier', data: { realmId: 1, actor, now: AT, linkifierId, pattern, urlTemplate },
});
const update = (linkifierId: number, pattern: string, urlTemplate: string): LinkifiersCommand => ({
  type: 'UpdateLinkifier', data: { realmId: 1, actor: iago, now: AT, linkifierId, pattern, urlTemplate },
});
const added = (linkifierId: number, pattern: string, order = linkifierId): LinkifierEvent => ({
  type: 'LinkifierAdded', data: { realmId: 1, linkifierId, pattern, urlTemplate: `https://x.test/${linkifierId}/{id}`, order, actorId: 2, at: AT },
});

describe('linkifiersDecider', () => {
  describe('AddLinkifier', () => {
    it('adds a stripped linkifier ordered after the others', () =>
      given([added(1, '#(?P<id>\\d+)', 0), added(2, 'PR(?P<id>\\d+)', 4)])
        .when(add('  ZUL-(?P<id>\\d+) ', ' https://x.test/{id}\n'))
        .then([{ type: 'LinkifierAdded', data: { realmId: 1, linkifierId: 7, pattern: 'ZUL-(?P<id>\\d+)', urlTemplate: 'https://x.test/{id}', order: 5, actorId: 2, at: AT } }]));

    it('orders the first linkifier at 0', () =>
      given([]).when(add('#(?P<id>\\d+)', 'https://x.test/{id}')).thenMatches([{ data: { order: 0 } }]));

    it('is for administrators only', () =>
      given([]).when(add('#(?P<id>\\d+)', 'https://x.test/{id}', 7, hamlet)).thenThrows(MustBeAdministratorError, 'Must be an organization administrator'));

    it.each([
      ['', 'https://x.test/{id}', 'This field cannot be blank.', { pattern: ['This field cannot be blank.'], __all__: ["Group 'id' in URL template is not present in linkifier pattern."] }],
      ['(foo', 'https://x.test/', 'Bad regular expression: missing ): (foo', { __all__: ['Bad regular expression: missing ): (foo'] }],
      ['ZUL-(?P<id>\\d????)', 'https://x.test/{id}', 'Bad regular expression: bad repetition operator: ????', undefined],
      ['ZUL-(?P<id>\\d+)', '$fgfg', "Group 'id' in linkifier pattern is not present in URL template.", undefined],
      ['ZUL-(?P<id>\\d+)', 'https://x.test/{hello}', "Group 'hello' in URL template is not present in linkifier pattern.", undefined],
      ['ZUL-(?P<id>\\d+)-(?P<hello>\\d+)', 'https://x.test/{hello}', "Group 'id' in linkifier pattern is not present in URL template.", undefined],
      ['#(?P<id>[123])', '{id', 'Invalid URL template.', { url_template: ['Invalid URL template.'] }],
      ['#(?P<id>\\d+)', '', 'This field cannot be blank.', { url_template: ['This field cannot be blank.'], __all__: ["Group 'id' in linkifier pattern is not present in URL template."] }],
      ['(?=a)b', 'https://x.test/', 'Bad regular expression: invalid perl operator: (?=', undefined],
      ['(a)\\1', 'https://x.test/', 'Bad regular expression: invalid escape sequence: \\1', undefined],
    ])('rejects pattern %j with template %j: %s', (pattern, urlTemplate, message, errors) => {
      const act = () => linkifiersDecider.decide(add(pattern, urlTemplate), linkifiersDecider.initialState());
      expect(act).toThrow(LinkifierValidationError);
      expect(act).toThrow(message);
      if (errors) {
        try {
          act();
        } catch (error) {
          expect((error as LinkifierValidationError).extra).toEqual({ errors });
        }
      }
    });

    it('rejects a pattern the organization already has', () =>
      given([added(1, '#(?P<id>\\d+)')]).when(add('#(?P<id>\\d+)', 'https://y.test/{id}'))
        .thenThrows(LinkifierValidationError, 'Realm filter with this Realm and Pattern already exists.'));

    it("accepts Zulip's multi-variable RFC 6570 example", () =>
      given([]).when(add(
        'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
        'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
      )).thenMatches([{ type: 'LinkifierAdded' }]));
  });

  describe('UpdateLinkifier', () => {
    it('changes the pattern and the template', () =>
      given([added(1, '#(?P<id>[123])')]).when(update(1, '#(?P<id>[0-9]+)', 'https://x.test/issues/{id}'))
        .then([{ type: 'LinkifierChanged', data: { realmId: 1, linkifierId: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://x.test/issues/{id}', actorId: 2, at: AT } }]));

    it('may keep its own pattern', () =>
      given([added(1, '#(?P<id>\\d+)')]).when(update(1, '#(?P<id>\\d+)', 'https://z.test/{id}')).thenMatches([{ type: 'LinkifierChanged' }]));

    it('may not take another linkifier\'s pattern', () =>
      given([added(1, '#(?P<id>\\d+)'), added(2, 'PR(?P<id>\\d+)')]).when(update(2, '#(?P<id>\\d+)', 'https://z.test/{id}'))
        .thenThrows(LinkifierValidationError, 'Realm filter with this Realm and Pattern already exists.'));

    it('answers an unknown id with "Linkifier not found."', () =>
      given([added(1, '#(?P<id>\\d+)')]).when(update(2, '#(?P<id>\\d+)', 'https://z.test/{id}')).thenThrows(LinkifierNotFoundError, 'Linkifier not found.'));
  });

  describe('RemoveLinkifier', () => {
    it('removes it', () =>
      given([added(1, '#(?P<id>\\d+)')]).when({ type: 'RemoveLinkifier', data: { realmId: 1, actor: iago, now: AT, linkifierId: 1 } })
        .then([{ type: 'LinkifierRemoved', data: { realmId: 1, linkifierId: 1, pattern: '#(?P<id>\\d+)', urlTemplate: 'https://x.test/1/{id}', actorId: 2, at: AT } }]));

    it('answers an unknown id with "Linkifier not found."', () =>
      given([added(1, 'a'), { type: 'LinkifierRemoved', data: { realmId: 1, linkifierId: 1, pattern: 'a', urlTemplate: '', actorId: 2, at: AT } }])
        .when({ type: 'RemoveLinkifier', data: { realmId: 1, actor: iago, now: AT, linkifierId: 1 } }).thenThrows(LinkifierNotFoundError));
  });

  describe('ReorderLinkifiers', () => {
    const reorder = (orderedIds: number[]): LinkifiersCommand => ({ type: 'ReorderLinkifiers', data: { realmId: 1, actor: iago, now: AT, orderedIds } });
    const three = [added(1, 'a'), added(2, 'b'), added(3, 'c')];

    it('gives each linkifier its position in the list', () =>
      given(three).when(reorder([3, 1, 2])).then([{ type: 'LinkifiersReordered', data: { realmId: 1, orderedIds: [3, 1, 2], positions: { 3: 0, 1: 1, 2: 2 }, actorId: 2, at: AT } }]));

    it('does nothing for an empty list without linkifiers', () => given([]).when(reorder([])).thenNothingHappened());

    it('rejects duplicated ids first', () =>
      given(three).when(reorder([3, 1, 2, 3])).thenThrows(DuplicatedLinkifiersError, 'The ordered list must not contain duplicated linkifiers'));

    it.each([[[1, 2]], [[4, 1, 2, 3]]])('rejects %j, which does not name every linkifier exactly', (ids) =>
      given(three).when(reorder(ids)).thenThrows(IncompleteLinkifierOrderError, 'The ordered list must enumerate all existing linkifiers exactly once'));

    it('is applied to the state', () => {
      const state = [...three, ...given(three).when(reorder([2, 3, 1])).events()].reduce(linkifiersDecider.evolve, linkifiersDecider.initialState());
      expect(Object.values(state.linkifiers).sort((a, b) => a.order - b.order).map((l) => l.linkifierId)).toEqual([2, 3, 1]);
    });
  });
});

describe('linkifier patterns beyond re2', () => {
  it('refuses a pattern V8 cannot run in linear time (documented in docs/linkifiers.md)', () =>
    expect(() => linkifiersDecider.decide(add('a{2,500}(?P<id>\\d)', 'https://x.test/{id}'), linkifiersDecider.initialState()))
      .toThrow('Bad regular expression: pattern too complex to be matched in linear time'));
});
