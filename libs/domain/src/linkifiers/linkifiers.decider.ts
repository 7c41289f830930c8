import { type Actor, isAdministrator } from '../shared/actor';
import type { Decider } from '../shared/decider';
import { MustBeAdministratorError } from '../shared/domain-error';
import { DuplicatedLinkifiersError, IncompleteLinkifierOrderError, LinkifierNotFoundError } from './linkifiers.errors';
import type { LinkifierEvent } from './linkifiers.events';
import { checkLinkifier } from './linkifiers.rules';

type Meta = { realmId: number; actor: Actor; now: string };

/** `POST /realm/filters`. */
export type AddLinkifier = { type: 'AddLinkifier'; data: Meta & { linkifierId: number; pattern: string; urlTemplate: string } };
/** `PATCH /realm/filters/{filter_id}`: both fields are required, as in Zulip. */
export type UpdateLinkifier = { type: 'UpdateLinkifier'; data: Meta & { linkifierId: number; pattern: string; urlTemplate: string } };
/** `DELETE /realm/filters/{filter_id}`. */
export type RemoveLinkifier = { type: 'RemoveLinkifier'; data: Meta & { linkifierId: number } };
/** `PATCH /realm/linkifiers`. */
export type ReorderLinkifiers = { type: 'ReorderLinkifiers'; data: Meta & { orderedIds: number[] } };

export type LinkifiersCommand = AddLinkifier | UpdateLinkifier | RemoveLinkifier | ReorderLinkifiers;

export type LinkifierState = { linkifierId: number; pattern: string; urlTemplate: string; order: number };
export type LinkifiersState = { linkifiers: Record<number, LinkifierState> };

const mustExist = (state: LinkifiersState, id: number): LinkifierState => {
  const linkifier = state.linkifiers[id];
  if (!linkifier) throw new LinkifierNotFoundError();
  return linkifier;
};

const patternsExcept = (state: LinkifiersState, id?: number) =>
  Object.values(state.linkifiers).filter((l) => l.linkifierId !== id).map((l) => l.pattern);

function decideReorder(d: ReorderLinkifiers['data'], state: LinkifiersState): LinkifierEvent[] {
  const ids = new Set(d.orderedIds);
  if (ids.size < d.orderedIds.length) throw new DuplicatedLinkifiersError();
  const existing = Object.values(state.linkifiers).map((l) => l.linkifierId);
  if (existing.length !== ids.size || existing.some((id) => !ids.has(id))) throw new IncompleteLinkifierOrderError();
  if (existing.length === 0) return [];
  const positions: Record<number, number> = {};
  d.orderedIds.forEach((id, index) => (positions[id] = index));
  return [{ type: 'LinkifiersReordered', data: { realmId: d.realmId, orderedIds: d.orderedIds, positions, actorId: d.actor.userId, at: d.now } }];
}

/** The linkifiers of one organization (stream `realm_linkifiers-<realmId>`), zerver/actions/realm_linkifiers.py. */
export const linkifiersDecider: Decider<LinkifiersCommand, LinkifierEvent, LinkifiersState> = {
  snapshot: { name: 'linkifiers', version: 1 },
  initialState: () => ({ linkifiers: {} }),

  decide: (command, state) => {
    const { realmId, actor, now: at } = command.data;
    if (!isAdministrator(actor)) throw new MustBeAdministratorError();
    const actorId = actor.userId;
    switch (command.type) {
      case 'AddLinkifier': {
        const { pattern, urlTemplate } = checkLinkifier(command.data.pattern, command.data.urlTemplate, patternsExcept(state));
        const orders = Object.values(state.linkifiers).map((l) => l.order);
        const order = orders.length === 0 ? 0 : Math.max(...orders) + 1;
        return [{ type: 'LinkifierAdded', data: { realmId, linkifierId: command.data.linkifierId, pattern, urlTemplate, order, actorId, at } }];
      }
      case 'UpdateLinkifier': {
        const linkifier = mustExist(state, command.data.linkifierId);
        const { pattern, urlTemplate } = checkLinkifier(command.data.pattern, command.data.urlTemplate, patternsExcept(state, linkifier.linkifierId));
        return [{ type: 'LinkifierChanged', data: { realmId, linkifierId: linkifier.linkifierId, pattern, urlTemplate, actorId, at } }];
      }
      case 'RemoveLinkifier': {
        const linkifier = mustExist(state, command.data.linkifierId);
        return [{ type: 'LinkifierRemoved', data: { realmId, linkifierId: linkifier.linkifierId, pattern: linkifier.pattern, urlTemplate: linkifier.urlTemplate, actorId, at } }];
      }
      case 'ReorderLinkifiers':
        return decideReorder(command.data, state);
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'LinkifierAdded': {
        const { linkifierId, pattern, urlTemplate, order } = event.data;
        return { linkifiers: { ...state.linkifiers, [linkifierId]: { linkifierId, pattern, urlTemplate, order } } };
      }
      case 'LinkifierChanged': {
        const linkifier = state.linkifiers[event.data.linkifierId];
        if (!linkifier) return state;
        return { linkifiers: { ...state.linkifiers, [linkifier.linkifierId]: { ...linkifier, pattern: event.data.pattern, urlTemplate: event.data.urlTemplate } } };
      }
      case 'LinkifierRemoved': {
        const linkifiers = { ...state.linkifiers };
        delete linkifiers[event.data.linkifierId];
        return { linkifiers };
      }
      case 'LinkifiersReordered': {
        const linkifiers = { ...state.linkifiers };
        for (const [id, order] of Object.entries(event.data.positions)) if (linkifiers[Number(id)]) linkifiers[Number(id)] = { ...linkifiers[Number(id)], order };
        return { linkifiers };
      }
      default:
        return state;
    }
  },
};
