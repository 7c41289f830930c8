import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthenticatedUser } from './request-context';

export const PUBLIC_ENDPOINT = 'zulip:public';
export const REQUIRED_ROLE = 'zulip:required-role';
export const CALLER_KIND = 'zulip:caller-kind';

/** No authentication (GET /server_settings, POST /fetch_api_key, the development endpoints). */
export const Public = () => SetMetadata(PUBLIC_ENDPOINT, true);

/** Zulip's @require_realm_admin / @require_realm_owner / @require_realm_moderator. */
export const RequireRole = (role: 'owner' | 'administrator' | 'moderator') => SetMetadata(REQUIRED_ROLE, role);

/** Bots only (DELETE /bot_storage) or humans only (Zulip's @human_users_only). */
export const BotsOnly = () => SetMetadata(CALLER_KIND, 'bot');
export const HumansOnly = () => SetMetadata(CALLER_KIND, 'human');

/** The authenticated caller. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthenticatedUser => {
  const auth = ctx.switchToHttp().getRequest<Request>().auth;
  if (!auth) throw new Error('@CurrentUser() used on an endpoint without authentication');
  return auth;
});
