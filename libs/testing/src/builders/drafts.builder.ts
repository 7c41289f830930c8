import type { DraftEvent, DraftInput, StoredDraft } from '@app/domain';

const AT = '2026-01-01T00:00:00.000Z';

/** An unaddressed draft of user 10 (id 1), unless overridden. */
export const storedDraft = (overrides: Partial<StoredDraft> = {}): StoredDraft => ({
  draftId: 1, type: '', to: [], topic: '', content: 'Hello', lastEditTime: 1_700_000_000, ...overrides,
});

export const draftInput = (overrides: Partial<DraftInput> = {}): DraftInput => ({
  type: '', to: [], topic: '', content: 'Hello', timestamp: 1_700_000_000, ...overrides,
});

export const draftsCreated = (drafts: StoredDraft[], userId = 10): DraftEvent => ({ type: 'DraftsCreated', data: { userId, drafts, at: AT } });

export const draftEdited = (old: StoredDraft, next: StoredDraft, userId = 10): DraftEvent => ({
  type: 'DraftEdited', data: { userId, draftId: old.draftId, old, new: next, at: AT },
});

export const draftsDeleted = (draftIds: number[], userId = 10): DraftEvent => ({ type: 'DraftsDeleted', data: { userId, draftIds, at: AT } });
