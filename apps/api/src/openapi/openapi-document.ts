import { SVC_FEATURE_LEVEL, SVC_VERSION } from '@app/application';
import type { ApiRoute } from './api-routes';
import { RESOURCE_SCHEMAS, RESPONSE_SCHEMAS } from './response-schemas';

const ERROR_RESPONSE = {
  description: 'Error envelope: result "error", msg, code and extra fields.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonError' } } },
};

const SUCCESS = { $ref: '#/components/schemas/JsonSuccess' };

/** The 200 answer of a route: the envelope with the endpoint's own fields, or what a route outside the API serves. */
function successResponse(route: ApiRoute): object {
  if (route.path === '/api/v1/openapi.json') {
    return { description: 'This document (no envelope).', content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } } };
  }
  if (!route.path.startsWith('/api/v1/')) return { description: 'Served outside the chat API: a page, a file or a text format (see the summary); no JSON envelope.' };
  const own = RESPONSE_SCHEMAS[`${route.method} ${route.path}`];
  return {
    description: own ? 'Success envelope with the fields of this endpoint.' : 'Success envelope: result "success", msg "" and the fields of this endpoint.',
    content: { 'application/json': { schema: own ? { allOf: [SUCCESS, own] } : SUCCESS } },
  };
}

/** The document's path for a route: `/api/v1/users/:user_id` → `/api/v1/users/{user_id}` (`*path` → `{path}`). */
export function openApiPath(routePath: string): string {
  return routePath.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
}

/**
 * An OpenAPI 3.1 description of every route, generated from the code (served at
 * /api/v1/openapi.json, browsable at /api/docs): paths from the server's root, one tag per
 * controller, response schemas for the specification's endpoints (response-schemas.ts).
 */
export function buildOpenApiDocument(routes: ApiRoute[], serverUrl: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    const inApi = route.path.startsWith('/api/v1/');
    const properties = Object.fromEntries(
      route.params.map((p) => [
        p.name,
        {
          ...(p.encoding === 'json' ? { contentMediaType: 'application/json', contentSchema: p.shape.describe } : p.shape.describe),
          ...(p.description ? { description: p.description } : {}),
          ...(p.aliases.length ? { 'x-aliases': p.aliases } : {}),
        },
      ]),
    );
    const required = route.params.filter((p) => p.required).map((p) => p.name);
    const formSchema = { type: 'object', properties, ...(required.length ? { required } : {}) };
    const hasBody = !['GET', 'DELETE'].includes(route.method) && route.params.length > 0;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: `${route.method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_+$/, ''),
      tags: [inApi ? route.controller : 'Outside the API'],
      ...(route.summary ? { summary: route.summary } : {}),
      ...(route.public ? { security: [] } : {}),
      ...(route.requiredRole ? { 'x-requires-role': route.requiredRole } : {}),
      ...(route.callerKind ? { 'x-caller': route.callerKind } : {}),
      parameters: [
        ...route.pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: /_id$/.test(name) ? 'integer' : 'string' } })),
        // Zulip reads every parameter from the query string too; GET and DELETE send them there.
        ...(!hasBody
          ? route.params.map((p) => ({ name: p.name, in: 'query', required: p.required, schema: (properties as Record<string, object>)[p.name] }))
          : []),
      ],
      ...(hasBody
        ? {
            requestBody: {
              content: { 'application/x-www-form-urlencoded': { schema: formSchema }, 'multipart/form-data': { schema: formSchema } },
            },
          }
        : {}),
      responses: {
        200: successResponse(route),
        ...(inApi ? { 400: ERROR_RESPONSE, ...(route.public ? {} : { 401: ERROR_RESPONSE }) } : { 404: { description: 'Not found.' } }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'team-chat server API',
      version: SVC_VERSION,
      description: `A Zulip-compatible REST API. Feature level ${SVC_FEATURE_LEVEL}. Parameters may be sent in the query string, a form body or a multipart body; non-string parameters are JSON text.`,
    },
    servers: [{ url: serverUrl }],
    security: [{ basicAuth: [] }],
    components: {
      securitySchemes: { basicAuth: { type: 'http', scheme: 'basic', description: 'Email address and API key.' } },
      schemas: {
        ...RESOURCE_SCHEMAS,
        JsonSuccess: {
          type: 'object',
          required: ['result', 'msg'],
          properties: {
            result: { const: 'success' },
            msg: { const: '' },
            ignored_parameters_unsupported: { type: 'array', items: { type: 'string' } },
          },
          additionalProperties: true,
        },
        JsonError: {
          type: 'object',
          required: ['result', 'msg', 'code'],
          properties: { result: { const: 'error' }, msg: { type: 'string' }, code: { type: 'string' } },
          additionalProperties: true,
        },
      },
    },
    paths,
  };
}
