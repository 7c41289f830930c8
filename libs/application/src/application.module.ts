import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DeciderRunner } from './shared/decider-runner';
import { CreateRealmHandler } from './realms/create-realm.handler';
import { RealmQueries } from './realms/realm-queries';
import { CreateUserHandler } from './users/create-user.handler';
import { UserQueries } from './users/user-queries';

const HANDLERS = [CreateRealmHandler, CreateUserHandler];
const QUERIES = [RealmQueries, UserQueries];

/** Command handlers and read-model queries. Needs the infrastructure and projections modules (global). */
@Module({
  imports: [CqrsModule.forRoot()],
  providers: [DeciderRunner, ...HANDLERS, ...QUERIES],
  exports: [CqrsModule, DeciderRunner, ...QUERIES],
})
export class ApplicationModule {}
