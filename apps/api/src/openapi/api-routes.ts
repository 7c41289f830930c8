import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { CALLER_KIND, PUBLIC_ENDPOINT, REQUIRED_ROLE } from '../http/auth.decorators';
import { getParamSpecs, type ParamSpec } from '../http/params/param.decorators';
import { ZulipParamsPipe } from '../http/params/params.decorator';
import { SUMMARY } from './summary.decorator';

export type ApiRoute = {
  method: string;
  /** Express-style path, e.g. `/api/v1/users/:user_id`. */
  path: string;
  summary?: string;
  params: ParamSpec[];
  pathParams: string[];
  public: boolean;
  requiredRole?: string;
  callerKind?: string;
  /** The controller's name without "Controller" (the document's tag). */
  controller: string;
};

const joinPath = (...parts: string[]) => '/' + parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');

/**
 * Every /api/v1 route of the running application with what it reads, from Nest's own routing
 * metadata and the parameter decorators: the source of the OpenAPI description and of the fuzzer.
 * `{ prefix: '/' }`: every route the application serves (the OpenAPI description also lists those
 * outside the API: /health, downloads, /metrics, /api/docs, /svc/console).
 */
export function listApiRoutes(app: { get<T>(type: abstract new (...args: never[]) => T, options?: { strict: boolean }): T }, options: { prefix?: string } = {}): ApiRoute[] {
  const prefixOf = options.prefix ?? '/api/v1/';
  const discovery = app.get(DiscoveryService, { strict: false });
  const reflector = app.get(Reflector, { strict: false });
  const routes: ApiRoute[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: unknown[]) => object) | undefined;
    if (!controller) continue;
    const base = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = controller.prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const paths = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
      const targets = [handler, controller];
      const argTypes = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ?? []) as Function[];
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { index: number; pipes?: unknown[] }>;
      const dtoArg = Object.values(args).find((a) => (a.pipes ?? []).some((p) => p === ZulipParamsPipe || p instanceof ZulipParamsPipe));
      const params = dtoArg ? getParamSpecs(argTypes[dtoArg.index]) : [];
      for (const prefix of base) {
        for (const suffix of paths) {
          const path = joinPath(prefix, suffix);
          if (!path.startsWith(prefixOf)) continue;
          routes.push({
            method: RequestMethod[method],
            path,
            summary: reflector.get<string>(SUMMARY, handler),
            params,
            pathParams: [...path.matchAll(/[:*]([A-Za-z_]+)/g)].map((m) => m[1]),
            public: !!reflector.getAllAndOverride<boolean>(PUBLIC_ENDPOINT, targets),
            requiredRole: reflector.getAllAndOverride<string>(REQUIRED_ROLE, targets),
            callerKind: reflector.getAllAndOverride<string>(CALLER_KIND, targets),
            controller: controller.name.replace(/Controller$/, ''),
          });
        }
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
