import { userProfileDecider, usersDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { AuthenticationService } from './authentication.service';
import { ChangeBotOwnerHandler } from './change-bot-owner.handler';
import { ChangeUserFullNameHandler } from './change-user-full-name.handler';
import { ChangeUserRoleHandler } from './change-user-role.handler';
import { CreateBotHandler } from './create-bot.handler';
import { CreateUserHandler } from './create-user.handler';
import { DeactivateUserHandler } from './deactivate-user.handler';
import { ReactivateUserHandler } from './reactivate-user.handler';
import { RegenerateApiKeyHandler } from './regenerate-api-key.handler';
import { UserQueries } from './user.queries';
import { UsersClientEvents } from './users.client-events';
import { UsersRegisterSections } from './users.register';
import { CredentialVault } from '../shared/credential-vault';

/**
 * AuthenticationService reads users for the HTTP app's guard, so it is exported with the queries;
 * CredentialVault too (the settings area's password change, the bots list, the CLI).
 */
const queries = [UserQueries, AuthenticationService, CredentialVault];

/**
 * Users and bots (the email and password changes are registered with the settings area, which
 * confirms them).
 */
export const usersArea = defineArea({
  name: 'users',
  providers: [
    CreateUserHandler,
    CreateBotHandler,
    ChangeUserRoleHandler,
    ChangeUserFullNameHandler,
    ChangeBotOwnerHandler,
    DeactivateUserHandler,
    ReactivateUserHandler,
    RegenerateApiKeyHandler,
    ...queries,
  ],
  exports: queries,
  clientEvents: UsersClientEvents,
  registerSections: UsersRegisterSections,
  deciders: [usersDecider, userProfileDecider],
  events: [
    'UserCreated',
    'UserRoleChanged',
    'UserFullNameChanged',
    'UserDeactivated',
    'UserReactivated',
    'UserApiKeyRegenerated',
    'UserPasswordChanged',
    'BotOwnerChanged',
    'UserEmailChanged',
  ],
  idSequences: [{ sequence: 'user', fields: ['userId', 'botId'] }],
});
