import { SVC_FEATURE_LEVEL, SVC_VERSION } from '@app/application';
import type { ApiRoute } from './api-routes';

const ERROR_RESPONSE = {
  description: 'Error envelope: result "error", msg, code and extra fields.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonError' } } },
};

/** An OpenAPI 3.1 description of the routes, generated from the code (served at /api/v1/openapi.json). */
export function buildOpenApiDocument(routes: ApiRoute[], serverUrl: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    const path = route.path.replace(/^\/api\/v1/, '').replace(/:([A-Za-z_]+)/g, '{$1}');
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
        200: { description: 'Success envelope: result "success", msg "" and the fields of this endpoint.', content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonSuccess' } } } },
        400: ERROR_RESPONSE,
        ...(route.public ? {} : { 401: ERROR_RESPONSE }),
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
    servers: [{ url: `${serverUrl}/api/v1` }],
    security: [{ basicAuth: [] }],
    components: {
      securitySchemes: { basicAuth: { type: 'http', scheme: 'basic', description: 'Email address and API key.' } },
      schemas: {
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
