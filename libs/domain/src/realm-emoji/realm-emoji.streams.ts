/**
 * The custom emoji of an organization live on one stream, `realm_emoji-<realmId>`: an active name
 * belongs to one emoji at a time, and a name may be used again once its emoji is deactivated.
 */
export const realmEmojiStream = (realmId: number) => `realm_emoji-${realmId}`;
