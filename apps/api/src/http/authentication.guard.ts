import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { APP_CONFIG, AuthenticationService, LOGGER, RATE_LIMIT_STORE, type RateLimitStorePort } from '@app/application';
import type { AppConfig } from '@app/config';
import { type Actor, DomainError, isAdministrator, MustBeAdministratorError, MustBeBotUserError, MustBeOwnerError } from '@app/domain';
import { MissingAuthenticationError, UnauthorizedError } from './api.errors';
import type { AuthenticatedUser } from './request-context';
import { CALLER_KIND, PUBLIC_ENDPOINT, REQUIRED_ROLE } from './auth.decorators';
import { RateLimiter } from './rate-limiter';
import { RealmContext } from './realm-context';

type EndpointRules = { isPublic: boolean; requiredRole: string | undefined; callerKind: string | undefined };

/**
 * HTTP Basic authentication for /api/v1 (spec A1): user name = email, password = API key.
 * Then Zulip's role decorators and the per-user or per-IP rate limit.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly limiter: RateLimiter;
  /** By handler, then controller (a handler inherited by several controllers may differ by controller). */
  private readonly endpoints = new WeakMap<Function, WeakMap<Function, EndpointRules>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly authentication: AuthenticationService,
    private readonly realmContext: RealmContext,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) rateLimitStore: RateLimitStorePort,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.limiter = new RateLimiter(rateLimitStore, logger);
  }

  /**
   * Synchronous when it can be (issue #23): a caller whose account is in memory (the common case)
   * is admitted without a promise or a microtask hop; otherwise, and whenever the rate limits
   * count, the same steps run asynchronously. Either way the steps and their order are the same.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    // Only the chat API is governed here (not /health).
    if (!request.path.startsWith('/api/v1/')) return true;
    const endpoint = this.endpoint(context.getHandler(), context.getClass());
    if (endpoint.isPublic) return this.limiter.hit(`ip:${request.ip}`, this.config.rateLimits.perIp, response).then(() => true);
    let credentials: { email: string; apiKey: string };
    let authenticated: AuthenticatedUser | undefined;
    try {
      credentials = parseBasicAuthorization(request.headers.authorization);
      const realmId = this.realmContext.knownId();
      // Every credential failure is a 401 UNAUTHORIZED carrying the failure's message, as in Zulip.
      authenticated = realmId === undefined ? undefined : this.authentication.authenticateHttpBasicFromMemory(realmId, credentials.email, credentials.apiKey);
    } catch (error) {
      return this.refuse(request, response, error);
    }
    if (authenticated === undefined) return this.authenticateAndAdmit(request, response, endpoint, credentials);
    return this.admit(authenticated, request, response, endpoint);
  }

  /** Authentication that reads: the account is not in memory (or the organization not yet known). */
  private async authenticateAndAdmit(request: Request, response: Response, endpoint: EndpointRules, { email, apiKey }: { email: string; apiKey: string }): Promise<boolean> {
    let authenticated: AuthenticatedUser;
    try {
      const realmId = await this.realmContext.currentId();
      authenticated = await this.authentication.authenticateHttpBasic(realmId, email, apiKey);
    } catch (error) {
      return this.refuse(request, response, error);
    }
    return this.admit(authenticated, request, response, endpoint);
  }

  /** Failed authentications count against the caller's IP: API keys cannot be guessed at speed. */
  private async refuse(request: Request, response: Response, error: unknown): Promise<never> {
    await this.limiter.hit(`ip:${request.ip}`, this.config.rateLimits.perIp, response);
    throw error;
  }

  /** The per-user rate limit, then the caller on the request and the route's role and caller-kind rules. */
  private admit(authenticated: AuthenticatedUser, request: Request, response: Response, endpoint: EndpointRules): boolean | Promise<boolean> {
    const rule = this.config.rateLimits.perUser;
    if (RateLimiter.counts(rule)) {
      return this.limiter.hit(`user:${authenticated.user.user_id}`, rule, response).then(() => this.enter(authenticated, request, endpoint));
    }
    return this.enter(authenticated, request, endpoint);
  }

  private enter({ user, actor }: AuthenticatedUser, request: Request, endpoint: EndpointRules): true {
    request.auth = { actor, user };
    this.checkRole(actor, endpoint.requiredRole);
    this.checkCallerKind(actor, endpoint.callerKind);
    return true;
  }

  /**
   * What the decorators of a route say, read once per handler and controller: decorators run when
   * the classes are defined, so the answer never changes (three `Reflector` reads per request
   * were ~1.5 % of a trivial request's CPU; issue #23).
   */
  private endpoint(handler: Function, controller: Function): EndpointRules {
    let byController = this.endpoints.get(handler);
    if (!byController) this.endpoints.set(handler, (byController = new WeakMap()));
    let rules = byController.get(controller);
    if (!rules) {
      const targets = [handler, controller];
      rules = {
        isPublic: this.reflector.getAllAndOverride<boolean>(PUBLIC_ENDPOINT, targets) === true,
        requiredRole: this.reflector.getAllAndOverride<string>(REQUIRED_ROLE, targets),
        callerKind: this.reflector.getAllAndOverride<string>(CALLER_KIND, targets),
      };
      byController.set(controller, rules);
    }
    return rules;
  }

  private checkRole(actor: Actor, required: string | undefined): void {
    if (required === 'administrator' && !isAdministrator(actor)) throw new MustBeAdministratorError();
    if (required === 'owner' && actor.role !== 'owner') throw new MustBeOwnerError();
    if (required === 'moderator' && !(isAdministrator(actor) || actor.role === 'moderator')) {
      throw new DomainError('Must be an organization moderator', 'UNAUTHORIZED_PRINCIPAL');
    }
  }

  private checkCallerKind(actor: Actor, kind: string | undefined): void {
    if (kind === 'bot' && !actor.isBot) throw new MustBeBotUserError();
    if (kind === 'human' && actor.isBot) throw new DomainError('This endpoint does not accept bot requests.');
  }
}

/** Zulip's authenticated_rest_api_view header handling, with its messages. */
export function parseBasicAuthorization(header: string | undefined): { email: string; apiKey: string } {
  // What every client sends ("Basic <base64>", one space): the same answer without trimming and splitting.
  if (header !== undefined && header.length > 6 && header.startsWith('Basic ')) {
    const encoded = header.slice(6);
    if (BASE64.test(encoded)) return splitCredentials(encoded);
  }
  if (header === undefined || header.trim() === '') throw new MissingAuthenticationError();
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2) throw new UnauthorizedError('Invalid authorization header for basic auth');
  const [scheme, encoded] = parts;
  if (scheme.toLowerCase() !== 'basic') throw new DomainError('This endpoint requires HTTP basic authentication.');
  if (!BASE64.test(encoded)) throw new UnauthorizedError('Invalid authorization header for basic auth');
  return splitCredentials(encoded);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function splitCredentials(encoded: string): { email: string; apiKey: string } {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) throw new UnauthorizedError('Invalid authorization header for basic auth');
  return { email: decoded.slice(0, separator), apiKey: decoded.slice(separator + 1) };
}
