import { DomainError } from './domain-error';

/** try_reorder_realm_channel_folders / try_reorder_realm_custom_profile_fields: a reorder must name every item. */
export class InvalidOrderMappingError extends DomainError {
  constructor() {
    super('Invalid order mapping.');
  }
}

/**
 * Zulip's reorder: `order` lists ids; each existing item takes the position of its id in the list
 * (the last one when repeated, as Python's dict comprehension keeps it). Every existing id must be
 * present; ids of nothing are ignored. Returns the new position of each existing id.
 */
export function orderMapping(existingIds: number[], order: number[]): Record<number, number> {
  const positions = new Map<number, number>();
  order.forEach((id, index) => positions.set(id, index));
  const result: Record<number, number> = {};
  for (const id of existingIds) {
    const position = positions.get(id);
    if (position === undefined) throw new InvalidOrderMappingError();
    result[id] = position;
  }
  return result;
}
