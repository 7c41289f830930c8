import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestParams } from './params/params.decorator';

/**
 * Zulip's parse_user_agent: the name is everything up to the first "/" or space-then-version,
 * e.g. "ZulipPython/0.9.0 (Linux)" → "ZulipPython", "ZulipMobile/27.1 (Android 14)" → "ZulipMobile".
 */
const USER_AGENT = /^(?<name>[^/ ]*[^0-9/(]*)(\/(?<version>[^/ ]*))?([ /].*)?$/;

export function parseUserAgent(userAgent: string): { name: string; version?: string } | undefined {
  const match = USER_AGENT.exec(userAgent);
  if (!match?.groups) return undefined;
  return { name: match.groups.name.trim(), version: match.groups.version };
}

/**
 * Zulip's get_client_name: the `client` parameter wins, then the User-Agent's name, else
 * "Unspecified". It names the message's `client` and drives the read_by_sender default.
 */
export function clientName(request: Request): string {
  const params = requestParams(request);
  if (params.has('client')) {
    const given = params.take('client') ?? '';
    if (given.trim() !== '') return given.trim().slice(0, 30);
  }
  const userAgent = request.headers['user-agent'];
  const parsed = typeof userAgent === 'string' && userAgent !== '' ? parseUserAgent(userAgent) : undefined;
  return parsed && parsed.name !== '' ? parsed.name.slice(0, 30) : 'Unspecified';
}

/** `@ClientName() client: string` — the calling client's name, as Zulip records it. */
export const ClientName = createParamDecorator((_data: unknown, ctx: ExecutionContext) => clientName(ctx.switchToHttp().getRequest<Request>()));
