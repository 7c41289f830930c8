import type { DraftType, StoredDraft } from '@app/domain';

export const DRAFTS = 'drafts';

/** A draft as `GET /drafts` returns it (Zulip's Draft.to_dict). */
export type ApiDraft = { id: number; type: DraftType; to: number[]; topic: string; content: string; timestamp: number };

/** The read model: the API's draft, plus its owner and the exact edit time (for ordering). */
export type DraftDocument = ApiDraft & { user_id: number; last_edit_time: number };

export const toApiDraft = ({ id, type, to, topic, content, timestamp }: DraftDocument): ApiDraft => ({ id, type, to, topic, content, timestamp });

/** A stored draft (the events' shape) as the API shows it; Draft.to_dict: int(last_edit_time.timestamp()). */
export const apiDraftOf = (d: StoredDraft): ApiDraft => ({
  id: d.draftId,
  type: d.type,
  to: d.to,
  topic: d.topic,
  content: d.content,
  timestamp: Math.floor(d.lastEditTime),
});
