import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DeciderRunner } from './shared/decider-runner';
import { CreateRealmHandler } from './realms/create-realm.handler';
import { RealmQueries } from './realms/realm-queries';
import { CreateUserHandler } from './users/create-user.handler';
import { UserQueries } from './users/user-queries';
import { ChangeRealmSettingsHandler } from './realms/change-realm-settings.handler';
import { DeactivateRealmHandler } from './realms/deactivate-realm.handler';
import { ReactivateRealmHandler } from './realms/reactivate-realm.handler';
import { CreateBotHandler } from './users/create-bot.handler';
import { ChangeUserRoleHandler } from './users/change-user-role.handler';
import { ChangeUserFullNameHandler } from './users/change-user-full-name.handler';
import { ChangeBotOwnerHandler } from './users/change-bot-owner.handler';
import { DeactivateUserHandler } from './users/deactivate-user.handler';
import { ReactivateUserHandler } from './users/reactivate-user.handler';
import { RegenerateApiKeyHandler } from './users/regenerate-api-key.handler';
import { AuthenticationService } from './users/authentication.service';

const HANDLERS = [CreateRealmHandler, CreateUserHandler];
const QUERIES = [RealmQueries, UserQueries];
const IDENTITY_HANDLERS = [
  ChangeRealmSettingsHandler,
  DeactivateRealmHandler,
  ReactivateRealmHandler,
  CreateBotHandler,
  ChangeUserRoleHandler,
  ChangeUserFullNameHandler,
  ChangeBotOwnerHandler,
  DeactivateUserHandler,
  ReactivateUserHandler,
  RegenerateApiKeyHandler,
];
const IDENTITY_SERVICES = [AuthenticationService];

/** Command handlers and read-model queries. Needs the infrastructure and projections modules (global). */
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [DeciderRunner, ...HANDLERS, ...QUERIES, ...IDENTITY_HANDLERS, ...IDENTITY_SERVICES],
  exports: [CqrsModule, DeciderRunner, ...QUERIES, ...IDENTITY_SERVICES],
})
export class ApplicationModule {}
