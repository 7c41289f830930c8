import { MessageError } from './messages.errors';

/** zerver/views/read_receipts.py: the organization's enable_read_receipts is off. */
export const readReceiptsDisabled = () => new MessageError('Read receipts are disabled in this organization.');

/** What GET /messages/{message_id}/read_receipts is decided on (the message access was checked before). */
export type ReadReceiptFacts = {
  /** The organization's enable_read_receipts. */
  enabled: boolean;
  viewerId: number;
  senderId: number;
  /** Active users (bots included) whose row of the message is flagged read. */
  readerIds: number[];
  /** Among the readers, those whose send_read_receipts is off. */
  notSharing: ReadonlySet<number>;
  /** Users the viewer muted, and readers who muted the viewer. */
  mutedByViewer: ReadonlySet<number>;
  mutingViewer: ReadonlySet<number>;
};

/**
 * The users shown as having read a message (zerver/views/read_receipts.py): readers who share
 * read receipts, except the sender, users who muted the viewer and users the viewer muted.
 * Deactivated users are not readers; bots are. Ascending.
 */
export function readReceiptUserIds(facts: ReadReceiptFacts): number[] {
  if (!facts.enabled) throw readReceiptsDisabled();
  return facts.readerIds
    .filter((id) => id !== facts.senderId && !facts.notSharing.has(id) && !facts.mutedByViewer.has(id) && !facts.mutingViewer.has(id))
    .sort((a, b) => a - b);
}
