/** Building blocks of the response schemas the areas declare (`<area>/<area>.openapi.ts`). */
export const int = { type: 'integer' } as const;
export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const object = (properties: Record<string, object>, required: string[] = Object.keys(properties)) => ({ type: 'object', properties, required });

/** The success envelope alone (R2, R4): no fields of its own. */
export const ENVELOPE_ONLY = { type: 'object' };

/**
 * What an area adds to the OpenAPI document: success-response schemas keyed by
 * `METHOD /api/v1/path` as its routes are declared, and the resources (components) they refer to.
 */
export type AreaOpenApi = {
  responses?: Record<string, object>;
  resources?: Record<string, object>;
};
