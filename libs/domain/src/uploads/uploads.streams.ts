/**
 * A user's uploads live on one stream, `attachments-<ownerId>`: only the owner deletes an upload
 * (access_attachment_by_id with needs_owner), so the owner is the consistency boundary, and a
 * per-user quota would be decided there too.
 */
export const attachmentsStream = (ownerId: number) => `attachments-${ownerId}`;
