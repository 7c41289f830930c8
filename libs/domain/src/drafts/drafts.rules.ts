import { InvalidChannelIdError } from '../channels/channels.errors';
import { normalizeContent } from '../messages/content.rules';
import { invalidUserId, userNoLongerActive } from '../messages/messages.errors';
import { truncateTopic } from '../messages/topic.rules';
import { pythonStrip } from '../shared/printable-text';
import { InvalidDraftError } from './drafts.errors';
import type { DraftType, StoredDraft } from './drafts.events';

/** A draft as a client sends it (zerver/lib/drafts.py DraftData); `timestamp` may be absent. */
export type DraftInput = { type: DraftType; to: number[]; topic: string; content: string; timestamp?: number | null };

/** An account named in a direct draft. */
export type DraftRecipient = { userId: number; email: string; isActive: boolean };

/**
 * Facts from outside the drafts stream, gathered by the handler for the drafts of one command:
 * which named channels the user may reach (access_stream_by_id succeeded), and which named user
 * ids are accounts of the organization (absent ones do not exist).
 */
export type DraftRecipientFacts = {
  accessibleChannelIds: readonly number[];
  users: readonly DraftRecipient[];
};

/** Python's round(x, 6): Zulip keeps edit times to the microsecond. */
const toMicroseconds = (seconds: number): number => Math.round(seconds * 1e6) / 1e6;

/**
 * Zulip's recipient_for_user_profiles + get_recipient_ids: the user ids a direct draft is stored
 * with. Every id must be an account ("Invalid user ID N", in ascending order), every account
 * active ("'<email>' is no longer using Zulip."). The sender is left out unless the draft is to
 * the sender alone; the others are listed in ascending order.
 */
function directRecipients(to: number[], senderId: number, facts: DraftRecipientFacts): number[] {
  const ids = [...new Set(to)].sort((a, b) => a - b);
  const accounts = new Map(facts.users.map((u) => [u.userId, u]));
  for (const id of ids) if (!accounts.has(id)) throw invalidUserId(id);
  for (const id of ids) {
    const account = accounts.get(id)!;
    if (!account.isActive) throw userNoLongerActive(account.email);
  }
  const others = ids.filter((id) => id !== senderId);
  return others.length === 0 ? [senderId] : others;
}

/**
 * zerver/lib/drafts.py further_validated_draft_dict, in its order: the content (stripped, then
 * normalize_body: "Message must not be empty", "Message must not contain null bytes", truncated
 * to 10,000), the timestamp (the command's time when absent; "Timestamp must not be negative."),
 * then the addressee. Channel drafts: the topic truncated to 60 code points, no NUL ("Topic must
 * not contain null bytes"), exactly one channel id, an accessible channel ("Invalid channel ID").
 * Direct drafts with recipients: existing, active accounts. Anything else is unaddressed: type
 * "", no recipients, no topic.
 */
export function validateDraft(
  input: DraftInput,
  context: { userId: number; nowSeconds: number; facts: DraftRecipientFacts },
): Omit<StoredDraft, 'draftId'> {
  const content = normalizeContent(pythonStrip(input.content));
  const lastEditTime = toMicroseconds(input.timestamp ?? context.nowSeconds);
  if (lastEditTime < 0) throw InvalidDraftError.negativeTimestamp();

  if (input.type === 'stream') {
    const topic = truncateTopic(input.topic);
    if (topic.includes('\u0000')) throw InvalidDraftError.topicHasNullBytes();
    if (input.to.length !== 1) throw InvalidDraftError.notExactlyOneChannel();
    const [channelId] = input.to;
    if (!context.facts.accessibleChannelIds.includes(channelId)) throw new InvalidChannelIdError();
    return { type: 'stream', to: [channelId], topic, content, lastEditTime };
  }
  if (input.type === 'private' && input.to.length > 0) {
    return { type: 'private', to: directRecipients(input.to, context.userId, context.facts), topic: '', content, lastEditTime };
  }
  return { type: '', to: [], topic: '', content, lastEditTime };
}

/** The channel ids and user ids the drafts name, so that a handler can gather the facts. */
export function draftRecipientIds(drafts: DraftInput[]): { channelIds: number[]; userIds: number[] } {
  const channelIds = new Set<number>();
  const userIds = new Set<number>();
  for (const draft of drafts) {
    if (draft.type === 'stream' && draft.to.length === 1) channelIds.add(draft.to[0]);
    if (draft.type === 'private') for (const id of draft.to) userIds.add(id);
  }
  return { channelIds: [...channelIds], userIds: [...userIds] };
}
