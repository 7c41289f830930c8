/** Zulip's draft types: unaddressed (""), a channel draft, a direct-message draft. */
export const DRAFT_TYPES = ['', 'stream', 'private'] as const;
export type DraftType = (typeof DRAFT_TYPES)[number];

/**
 * A draft as stored (zerver/models/drafts.py Draft, in the shape of Draft.to_dict):
 * `to` is `[channelId]` for channel drafts, the other participants for direct drafts, `[]` otherwise;
 * `lastEditTime` is in seconds, to the microsecond as Zulip stores it.
 */
export type StoredDraft = {
  draftId: number;
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  lastEditTime: number;
};

/** do_create_drafts: every draft of one `POST /drafts`, in request order. */
export type DraftsCreated = {
  type: 'DraftsCreated';
  data: { userId: number; drafts: StoredDraft[]; at: string };
};

/** do_edit_draft. */
export type DraftEdited = {
  type: 'DraftEdited';
  data: { userId: number; draftId: number; old: StoredDraft; new: StoredDraft; at: string };
};

/** do_delete_draft (one id), or every draft at once when the user stops synchronizing drafts. */
export type DraftsDeleted = {
  type: 'DraftsDeleted';
  data: { userId: number; draftIds: number[]; at: string };
};

export type DraftEvent = DraftsCreated | DraftEdited | DraftsDeleted;

export const DRAFT_EVENT_TYPES: readonly DraftEvent['type'][] = ['DraftsCreated', 'DraftEdited', 'DraftsDeleted'];
