import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { checkMayAddSubscriptions } from '@app/domain';

/**
 * Zulip's @require_non_guest_user, which runs before the endpoint reads its parameters: a guest is
 * refused even when the request is malformed. Runs after the global authentication guard.
 */
@Injectable()
export class NonGuestGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const auth = context.switchToHttp().getRequest<Request>().auth;
    if (auth) checkMayAddSubscriptions(auth.actor);
    return true;
  }
}
