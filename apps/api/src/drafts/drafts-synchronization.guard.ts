import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DraftsSynchronization } from '@app/application';
import { DraftsSynchronizationDisabledError } from '@app/domain';

/**
 * Zulip's draft_endpoint: every draft endpoint refuses while the user's
 * `enable_drafts_synchronization` is off, before its parameters are looked at. Runs after
 * authentication (a global guard). The drafts decider checks the same fact again when it writes.
 */
@Injectable()
export class DraftsSynchronizationGuard implements CanActivate {
  constructor(private readonly synchronization: DraftsSynchronization) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const auth = context.switchToHttp().getRequest<Request>().auth;
    if (!auth) return true;
    if (!(await this.synchronization.isEnabled(auth.actor))) throw new DraftsSynchronizationDisabledError();
    return true;
  }
}
