import { deciderSpec, userCreated, userDeactivated } from '@app/testing';
import {
  BotCannotOwnBotError,
  BotNameInUseError,
  BotNameInUseOnReactivationError,
  ChangeBotOwnerError,
  DomainError,
  InsufficientPermissionError,
  InvalidBotTypeError,
  InvalidEmailError,
  InvalidFullNameError,
  NoSuchBotError,
  NoSuchUserError,
  type BotType,
  type UserEvent,
  type UsersCommand,
  UserIsDeactivatedError,
  UsernameAlreadyInUseError,
  usersDecider,
} from '@app/domain';

const given = deciderSpec(usersDecider);
const NOW = '2026-03-01T10:00:00.000Z';
const KEY = 'bot-key-1';
const DOMAIN = 'acme.chat.test';

// Desdemona owns the organization, iago administers it, hamlet and cordelia are members.
const DESDEMONA = 1, IAGO = 2, HAMLET = 3, CORDELIA = 4;
const organization: UserEvent[] = [
  userCreated({ userId: DESDEMONA, email: 'desdemona@acme.test', fullName: 'Desdemona', role: 'owner' }),
  userCreated({ userId: IAGO, email: 'iago@acme.test', fullName: 'Iago', role: 'administrator' }),
  userCreated({ userId: HAMLET, email: 'hamlet@acme.test', fullName: 'King Hamlet', role: 'member' }),
  userCreated({ userId: CORDELIA, email: 'cordelia@acme.test', fullName: 'Cordelia Lear', role: 'member' }),
];
const botCreated = (userId: number, ownerId: number, fullName: string, shortName: string, botType: BotType = 'generic') =>
  userCreated({
    userId, email: `${shortName}-bot@${DOMAIN}`, fullName, role: 'member', isBot: true, botType, botOwnerId: ownerId,
    apiKeyId: KEY, passwordId: null, actorId: ownerId,
  });
const helper = botCreated(20, HAMLET, 'Hamlet helper', 'helper');

type By = number | null;
const createBot = (o: { by?: By; ownerId?: number | null; fullName?: string; shortName?: string; botType?: BotType; userId?: number } = {}): UsersCommand => ({
  type: 'CreateBot',
  data: {
    realmId: 1, actorId: o.by === undefined ? HAMLET : o.by, now: NOW, userId: o.userId ?? 30,
    shortName: o.shortName ?? 'notify', fullName: o.fullName ?? 'Notifier', botType: o.botType ?? 'generic',
    ownerId: o.ownerId === undefined ? HAMLET : o.ownerId, botDomain: DOMAIN, apiKeyId: KEY,
  },
});
const changeOwner = (botId: number, ownerId: number, by: By): UsersCommand => ({ type: 'ChangeBotOwner', data: { realmId: 1, actorId: by, now: NOW, botId, ownerId } });
const deactivateBot = (botId: number, by: By): UsersCommand => ({ type: 'DeactivateUser', data: { realmId: 1, actorId: by, now: NOW, userId: botId, target: 'bot' } });
const deactivate = (userId: number, by: By, target?: 'user' | 'any'): UsersCommand => ({ type: 'DeactivateUser', data: { realmId: 1, actorId: by, now: NOW, userId, ...(target ? { target } : {}) } });
const reactivate = (userId: number, by: By): UsersCommand => ({ type: 'ReactivateUser', data: { realmId: 1, actorId: by, now: NOW, userId } });
const rename = (userId: number, fullName: string, by: By): UsersCommand => ({ type: 'ChangeUserFullName', data: { realmId: 1, actorId: by, now: NOW, userId, fullName } });
const regenerate = (userId: number, by: By): UsersCommand => ({ type: 'RegenerateApiKey', data: { realmId: 1, actorId: by, now: NOW, userId, apiKeyId: 'key-2' } });
const deactivated = (userId: number, actorId: By): UserEvent => ({ type: 'UserDeactivated', data: { realmId: 1, userId, actorId, at: NOW } });

const errorOf = (history: UserEvent[], command: UsersCommand): DomainError => {
  try {
    given(history).when(command).events();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError');
};

describe('users decider: bots', () => {
  describe('CreateBot (POST /bots)', () => {
    it('creates a generic bot at <short_name>-bot@<organization host>, owned by its creator, without a password', () =>
      given(organization).when(createBot()).then([
        {
          type: 'UserCreated',
          data: {
            realmId: 1, userId: 30, email: 'notify-bot@acme.chat.test', fullName: 'Notifier', role: 'member', isBot: true,
            botType: 'generic', botOwnerId: HAMLET, apiKeyId: KEY, passwordId: null, timezone: '', actorId: HAMLET, at: NOW,
          },
        },
      ]));

    it('creates incoming webhook bots (bot_type 2)', () =>
      given(organization).when(createBot({ botType: 'incoming_webhook' })).thenMatches([{ data: { botType: 'incoming_webhook' } }]));

    it('lets the operator create a bot for a named owner', () =>
      given(organization).when(createBot({ by: null, ownerId: CORDELIA })).thenMatches([{ data: { botOwnerId: CORDELIA, actorId: null } }]));

    it('lets the operator create a system bot owned by nobody (Notification Bot)', () =>
      given(organization).when(createBot({ by: null, ownerId: null, shortName: 'notification', fullName: 'Notification Bot' }))
        .thenMatches([{ type: 'UserCreated', data: { email: 'notification-bot@acme.chat.test', isBot: true, botOwnerId: null, actorId: null } }]));

    it('refuses a bot owned by nobody to a user', () =>
      given(organization).when(createBot({ by: IAGO, ownerId: null })).thenThrows(InsufficientPermissionError));

    it('trims the short name and the full name', () =>
      given(organization).when(createBot({ shortName: '  notify ', fullName: ' Notifier  ' }))
        .thenMatches([{ data: { email: 'notify-bot@acme.chat.test', fullName: 'Notifier' } }]));

    it.each([[''], ['   '], ['two words'], ['a@b']])('rejects the short name %j: "Bad name or username"', (shortName) =>
      given(organization).when(createBot({ shortName })).thenThrows(InvalidEmailError, 'Bad name or username'));

    it('rejects an invalid full name with the full-name rules', () =>
      given(organization).when(createBot({ fullName: 'x'.repeat(101) })).thenThrows(InvalidFullNameError, 'Name too long!'));

    it('rejects an address already in use, case-insensitively: "Username already in use"', () =>
      given([...organization, botCreated(20, CORDELIA, 'Other', 'NOTIFY')]).when(createBot())
        .thenThrows(UsernameAlreadyInUseError, 'Username already in use'));

    it('rejects the name of an active account: "Name is already in use."', () =>
      given(organization).when(createBot({ fullName: 'King Hamlet' })).thenThrows(BotNameInUseError, 'Name is already in use.'));

    it('allows the name of a deactivated account', () =>
      given([...organization, helper, userDeactivated(20)]).when(createBot({ fullName: 'Hamlet helper' }))
        .thenMatches([{ type: 'UserCreated', data: { fullName: 'Hamlet helper' } }]));

    it('rejects a bot type other than generic and incoming webhook: "Invalid bot type"', () =>
      given(organization).when(createBot({ botType: 'embedded' as BotType })).thenThrows(InvalidBotTypeError, 'Invalid bot type'));

    it('needs an owner that exists', () =>
      given(organization).when(createBot({ by: null, ownerId: 99 })).thenThrows(NoSuchUserError, 'No such user'));

    it('needs an active owner', () =>
      given([...organization, userDeactivated(CORDELIA)]).when(createBot({ by: null, ownerId: CORDELIA }))
        .thenThrows(UserIsDeactivatedError, 'User is deactivated'));

    it('needs a human owner', () =>
      given([...organization, helper]).when(createBot({ by: null, ownerId: 20 })).thenThrows(BotCannotOwnBotError, "Bots can't own other bots"));

    it('does not let a user create a bot owned by someone else', () =>
      given(organization).when(createBot({ by: IAGO, ownerId: HAMLET })).thenThrows(InsufficientPermissionError, 'Insufficient permission'));
  });

  describe('ChangeBotOwner (PATCH /bots/{bot_id} bot_owner_id)', () => {
    const history = [...organization, helper];

    it('hands the bot to another user, with the old and new owner', () =>
      given(history).when(changeOwner(20, CORDELIA, HAMLET)).then([
        { type: 'BotOwnerChanged', data: { realmId: 1, userId: 20, oldOwnerId: HAMLET, newOwnerId: CORDELIA, actorId: HAMLET, at: NOW } },
      ]));

    it('lets administrators change any bot\'s owner', () =>
      given(history).when(changeOwner(20, IAGO, IAGO)).thenMatches([{ type: 'BotOwnerChanged', data: { newOwnerId: IAGO } }]));

    it('is a no-op when the owner is unchanged', () => given(history).when(changeOwner(20, HAMLET, HAMLET)).thenNothingHappened());

    it('refuses members who do not own the bot: "Insufficient permission"', () =>
      given(history).when(changeOwner(20, CORDELIA, CORDELIA)).thenThrows(InsufficientPermissionError, 'Insufficient permission'));

    it('answers "No such bot" for a human account or an unknown id', () => {
      given(history).when(changeOwner(HAMLET, CORDELIA, IAGO)).thenThrows(NoSuchBotError, 'No such bot');
      given(history).when(changeOwner(99, CORDELIA, IAGO)).thenThrows(NoSuchBotError, 'No such bot');
    });

    it('uses Zulip\'s "Failed to change owner" messages', () => {
      given(history).when(changeOwner(20, 99, HAMLET)).thenThrows(ChangeBotOwnerError, 'Failed to change owner, no such user');
      given([...history, userDeactivated(CORDELIA)]).when(changeOwner(20, CORDELIA, HAMLET))
        .thenThrows(ChangeBotOwnerError, 'Failed to change owner, user is deactivated');
      given([...history, botCreated(21, HAMLET, 'Second', 'second')]).when(changeOwner(20, 21, HAMLET))
        .thenThrows(ChangeBotOwnerError, "Failed to change owner, bots can't own other bots");
    });
  });

  describe('deactivating bots', () => {
    it('DELETE /bots/{bot_id}: the owner deactivates their bot', () =>
      given([...organization, helper]).when(deactivateBot(20, HAMLET)).then([deactivated(20, HAMLET)]));

    it('DELETE /bots/{bot_id}: other members may not; humans are "No such bot"; an inactive bot is a no-op', () => {
      given([...organization, helper]).when(deactivateBot(20, CORDELIA)).thenThrows(InsufficientPermissionError);
      given([...organization, helper]).when(deactivateBot(HAMLET, IAGO)).thenThrows(NoSuchBotError, 'No such bot');
      given([...organization, helper, userDeactivated(20)]).when(deactivateBot(20, HAMLET)).thenNothingHappened();
    });

    it('DELETE /users/{user_id} does not reach bots: "No such user"', () =>
      given([...organization, helper]).when(deactivate(20, IAGO, 'user')).thenThrows(NoSuchUserError, 'No such user'));

    it('deactivating a user deactivates their active bots first, in the same append', () =>
      given([
        ...organization,
        helper,
        botCreated(21, HAMLET, 'Hook', 'hook', 'incoming_webhook'),
        botCreated(22, HAMLET, 'Old', 'old'),
        userDeactivated(22),
        botCreated(23, CORDELIA, 'Cordelia bot', 'cordelia'),
      ]).when(deactivate(HAMLET, IAGO)).then([deactivated(20, IAGO), deactivated(21, IAGO), deactivated(HAMLET, IAGO)]));
  });

  describe('reactivating bots', () => {
    it('refuses when an active account has the bot\'s name, with Zulip\'s message', () => {
      const error = errorOf(
        [...organization, helper, userDeactivated(20), botCreated(21, CORDELIA, 'Hamlet helper', 'other')],
        reactivate(20, HAMLET),
      );
      expect(error).toBeInstanceOf(BotNameInUseOnReactivationError);
      expect(error.message).toBe(
        'There is already an active bot named "Hamlet helper" in this organization. To reactivate this bot, you must rename or deactivate the other one first.',
      );
    });

    it('lets the owner reactivate their bot', () =>
      given([...organization, helper, userDeactivated(20)]).when(reactivate(20, HAMLET))
        .then([{ type: 'UserReactivated', data: { realmId: 1, userId: 20, actorId: HAMLET, at: NOW } }]));

    it('gives a bot whose owner is deactivated to the user who reactivates it', () =>
      given([...organization, helper, deactivated(20, IAGO), deactivated(HAMLET, IAGO)]).when(reactivate(20, IAGO)).then([
        { type: 'UserReactivated', data: { realmId: 1, userId: 20, actorId: IAGO, at: NOW } },
        { type: 'BotOwnerChanged', data: { realmId: 1, userId: 20, oldOwnerId: HAMLET, newOwnerId: IAGO, actorId: IAGO, at: NOW } },
      ]));

    it('keeps the owner when the operator reactivates the bot', () =>
      given([...organization, helper, deactivated(20, null), deactivated(HAMLET, null)]).when(reactivate(20, null))
        .then([{ type: 'UserReactivated', data: { realmId: 1, userId: 20, actorId: null, at: NOW } }]));
  });

  describe('renaming bots and their API keys', () => {
    it('lets the owner rename the bot, not to the name of an active account', () => {
      given([...organization, helper]).when(rename(20, 'Helper two', HAMLET)).thenMatches([{ type: 'UserFullNameChanged', data: { newName: 'Helper two' } }]);
      given([...organization, helper]).when(rename(20, 'Iago', HAMLET)).thenThrows(BotNameInUseError, 'Name is already in use.');
    });

    it('refuses other members: "Insufficient permission"', () =>
      given([...organization, helper]).when(rename(20, 'Mine now', CORDELIA)).thenThrows(InsufficientPermissionError));

    it('lets the owner and administrators regenerate a bot\'s key, not other members', () => {
      given([...organization, helper]).when(regenerate(20, HAMLET)).thenMatches([{ type: 'UserApiKeyRegenerated', data: { userId: 20 } }]);
      given([...organization, helper]).when(regenerate(20, IAGO)).thenMatches([{ type: 'UserApiKeyRegenerated' }]);
      given([...organization, helper]).when(regenerate(20, CORDELIA)).thenThrows(InsufficientPermissionError, 'Insufficient permission');
    });
  });

  describe('bot names against the humans\' current names (activeHumanNames, from the read models)', () => {
    // Humans rename themselves on user_profile-<userId>: the directory keeps the name from before.
    const names = ['Desdemona', 'Iago', 'Prince Hamlet', 'Cordelia Lear'];
    const withNames = (command: UsersCommand): UsersCommand => ({ ...command, data: { ...command.data, activeHumanNames: names } }) as UsersCommand;

    it('a bot may not take a human\'s current name, which the directory does not know', () => {
      given(organization).when(withNames(createBot({ fullName: 'Prince Hamlet' }))).thenThrows(BotNameInUseError, 'Name is already in use.');
      given([...organization, helper]).when(withNames(rename(20, 'Prince Hamlet', HAMLET))).thenThrows(BotNameInUseError);
    });

    it('a bot may take a human\'s former name, which the directory still holds', () => {
      given(organization).when(withNames(createBot({ fullName: 'King Hamlet' }))).thenMatches([{ type: 'UserCreated', data: { fullName: 'King Hamlet', isBot: true } }]);
      given([...organization, helper]).when(withNames(rename(20, 'King Hamlet', HAMLET))).thenMatches([{ type: 'UserFullNameChanged', data: { newName: 'King Hamlet' } }]);
    });

    it('other bots\' names still come from the directory', () => {
      given([...organization, helper]).when(withNames(createBot({ fullName: 'Hamlet helper' }))).thenThrows(BotNameInUseError);
      const error = errorOf(
        [...organization, helper, userDeactivated(20), botCreated(21, CORDELIA, 'Hamlet helper', 'other')],
        withNames(reactivate(20, HAMLET)),
      );
      expect(error).toBeInstanceOf(BotNameInUseOnReactivationError);
    });

    it('a reactivated bot may not take a human\'s current name', () => {
      const renamedTo = ['Desdemona', 'Iago', 'Hamlet helper', 'Cordelia Lear'];
      const error = errorOf([...organization, helper, userDeactivated(20)], { ...reactivate(20, HAMLET), data: { ...reactivate(20, HAMLET).data, activeHumanNames: renamedTo } } as UsersCommand);
      expect(error).toBeInstanceOf(BotNameInUseOnReactivationError);
    });
  });
});
