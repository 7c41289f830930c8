import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ApplicationModule } from '@app/application';
import { InfrastructureModule, type InfrastructureOptions } from '@app/infrastructure';
import { ProjectionsModule } from '@app/projections';
import { HealthController } from './health/health.controller';
import { DevelopmentOrganization } from './development/development-organization';
import { HttpConventionsModule } from './http/http-conventions.module';
import { ServerSettingsController } from './server-settings/server-settings.controller';
import { StaticController } from './server-settings/static.controller';
import { RegisterController } from './register/register.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { UsersController } from './users/users.controller';
import { BotsController } from './bots/bots.controller';
import { AuthController } from './auth/auth.controller';
import { AvatarsController } from './avatars/avatars.controller';
import { ChannelsController } from './channels/channels.controller';
import { SubscriptionsController } from './subscriptions/subscriptions.controller';
import { MessagesController } from './messages/messages.controller';

export type AppOptions = InfrastructureOptions;

@Module({})
export class AppModule {
  static forRoot(options: AppOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(options),
        ProjectionsModule.forRoot({ runProjectors: options.config.runProjectors }),
        ApplicationModule,
        HttpConventionsModule,
        DiscoveryModule,
      ],
      controllers: [HealthController, ServerSettingsController, StaticController, RegisterController, OpenApiController, UsersController, BotsController, AuthController, AvatarsController, ChannelsController, SubscriptionsController, MessagesController],
      providers: [DevelopmentOrganization],
    };
  }
}
