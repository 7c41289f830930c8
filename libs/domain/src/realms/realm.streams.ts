/**
 * All organizations of the server form one small registry stream, because the unique
 * `string_id` (subdomain) is a server-wide invariant. Each organization's own settings live on
 * `realm-<realmId>`.
 */
export const REALM_REGISTRY_STREAM = 'realm_registry-server';
export const realmStream = (realmId: number) => `realm-${realmId}`;
