import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ApplicationModule } from '@app/application';
import { ApiExceptionFilter } from './api-exception.filter';
import { AuthenticationGuard } from './authentication.guard';
import { RealmContext } from './realm-context';

/** The conventions every /api/v1 route follows, implemented once (the success envelope: configureHttp, envelope.ts). */
@Global()
@Module({
  imports: [ApplicationModule],
  providers: [
    RealmContext,
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_GUARD, useClass: AuthenticationGuard },
  ],
  exports: [RealmContext],
})
export class HttpConventionsModule {}
