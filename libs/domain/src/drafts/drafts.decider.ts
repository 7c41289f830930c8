import type { Decider } from '../shared/decider';
import { DraftDoesNotExistError, DraftsSynchronizationDisabledError } from './drafts.errors';
import type { DraftEvent, StoredDraft } from './drafts.events';
import { validateDraft, type DraftInput, type DraftRecipientFacts } from './drafts.rules';

type Meta = { userId: number; now: string };
/** The user's enable_drafts_synchronization setting, read by the handler (it lives on the settings stream). */
type Synchronization = { syncEnabled: boolean };

/** `POST /drafts` (create_drafts): ids come from the `draft` sequence, one per draft, in order. */
export type CreateDrafts = {
  type: 'CreateDrafts';
  data: Meta & Synchronization & { drafts: DraftInput[]; draftIds: number[]; facts: DraftRecipientFacts };
};
/** `PATCH /drafts/{draft_id}` (edit_draft): the whole draft is replaced. */
export type EditDraft = {
  type: 'EditDraft';
  data: Meta & Synchronization & { draftId: number; draft: DraftInput; facts: DraftRecipientFacts };
};
/** `DELETE /drafts/{draft_id}` (delete_draft). */
export type DeleteDraft = { type: 'DeleteDraft'; data: Meta & Synchronization & { draftId: number } };
/** Turning enable_drafts_synchronization off deletes every draft on the server (do_change_user_setting). */
export type DeleteAllDrafts = { type: 'DeleteAllDrafts'; data: Meta };

export type DraftsCommand = CreateDrafts | EditDraft | DeleteDraft | DeleteAllDrafts;

export type DraftsState = { drafts: Record<number, StoredDraft> };

const nowSeconds = (iso: string) => Date.parse(iso) / 1000;
const sameDraft = (a: StoredDraft, b: StoredDraft) => JSON.stringify(a) === JSON.stringify(b);

const mustExist = (state: DraftsState, draftId: number): StoredDraft => {
  const draft = state.drafts[draftId];
  if (!draft) throw new DraftDoesNotExistError();
  return draft;
};

/** The drafts of one user (stream `drafts-<userId>`). */
export const draftsDecider: Decider<DraftsCommand, DraftEvent, DraftsState> = {
  snapshot: { name: 'drafts', version: 1 },
  initialState: () => ({ drafts: {} }),

  decide: (command, state) => {
    const { userId, now: at } = command.data;
    // draft_endpoint refuses before anything else is looked at, parameters included.
    if (command.type !== 'DeleteAllDrafts' && !command.data.syncEnabled) throw new DraftsSynchronizationDisabledError();
    switch (command.type) {
      case 'CreateDrafts': {
        const { drafts, draftIds, facts } = command.data;
        if (draftIds.length !== drafts.length) throw new Error('CreateDrafts needs one id per draft');
        for (const id of draftIds) if (state.drafts[id]) throw new Error(`draft id ${id} is already used`);
        if (drafts.length === 0) return [];
        const created = drafts.map((input, index) => ({
          draftId: draftIds[index],
          ...validateDraft(input, { userId, nowSeconds: nowSeconds(at), facts }),
        }));
        return [{ type: 'DraftsCreated', data: { userId, drafts: created, at } }];
      }
      case 'EditDraft': {
        const { draftId, draft, facts } = command.data;
        const old = mustExist(state, draftId);
        const next: StoredDraft = { draftId, ...validateDraft(draft, { userId, nowSeconds: nowSeconds(at), facts }) };
        return sameDraft(old, next) ? [] : [{ type: 'DraftEdited', data: { userId, draftId, old, new: next, at } }];
      }
      case 'DeleteDraft': {
        mustExist(state, command.data.draftId);
        return [{ type: 'DraftsDeleted', data: { userId, draftIds: [command.data.draftId], at } }];
      }
      case 'DeleteAllDrafts': {
        const draftIds = Object.keys(state.drafts).map(Number);
        return draftIds.length === 0 ? [] : [{ type: 'DraftsDeleted', data: { userId, draftIds, at } }];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'DraftsCreated': {
        const drafts = { ...state.drafts };
        for (const draft of event.data.drafts) drafts[draft.draftId] = draft;
        return { drafts };
      }
      case 'DraftEdited':
        return state.drafts[event.data.draftId] ? { drafts: { ...state.drafts, [event.data.draftId]: event.data.new } } : state;
      case 'DraftsDeleted': {
        const drafts = { ...state.drafts };
        for (const id of event.data.draftIds) delete drafts[id];
        return { drafts };
      }
      default:
        return state;
    }
  },
};
