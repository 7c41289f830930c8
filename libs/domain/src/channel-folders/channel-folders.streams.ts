/**
 * Every channel folder of an organization lives on one stream, `channel_folders-<realmId>`: folder
 * names are unique per organization among folders that are not archived (case-insensitively), and
 * a reorder touches every folder at once, so both need to see all of them.
 */
export const channelFoldersStream = (realmId: number) => `channel_folders-${realmId}`;
