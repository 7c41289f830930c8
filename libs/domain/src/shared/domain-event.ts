/** A past-tense fact as the domain sees it: a type and a JSON-serialisable payload. */
export type DomainEvent<Type extends string = string, Data extends object = object> = Readonly<{
  type: Type;
  data: Data;
}>;

/**
 * Schema version written with every event. Bump it for an event type when its payload shape changes,
 * and register an upcaster that turns the older shape into the current one when read.
 */
export const CURRENT_SCHEMA_VERSION = 1;
