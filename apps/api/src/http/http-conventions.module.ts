import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ApplicationModule } from '@app/application';
import { ApiExceptionFilter } from './api-exception.filter';
import { AuthenticationGuard } from './authentication.guard';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { RealmContext } from './realm-context';

/** The conventions every /api/v1 route follows, implemented once. */
@Global()
@Module({
  imports: [ApplicationModule],
  providers: [
    RealmContext,
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
  ],
  exports: [RealmContext],
})
export class HttpConventionsModule {}
