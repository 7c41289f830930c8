import type { Provider } from '@nestjs/common';
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

/**
 * The users area's handlers and queries, registered by ApplicationModule (the email and password
 * changes are registered with the settings area, which confirms them). AuthenticationService reads
 * users for the HTTP app's guard, so it is exported with the queries.
 */
export const USERS_HANDLERS: Provider[] = [
  CreateUserHandler,
  CreateBotHandler,
  ChangeUserRoleHandler,
  ChangeUserFullNameHandler,
  ChangeBotOwnerHandler,
  DeactivateUserHandler,
  ReactivateUserHandler,
  RegenerateApiKeyHandler,
];
export const USERS_QUERIES: Provider[] = [UserQueries, AuthenticationService];
