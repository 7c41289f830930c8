/**
 * A user's saved snippets live on one stream, `saved_snippets-<userId>`: a snippet belongs to one
 * user and is found, edited and deleted only through its owner ("Saved snippet does not exist."
 * for anyone else's). Ids come from the server-wide id sequence `saved_snippet`, as Zulip's are global.
 */
export const savedSnippetsStream = (userId: number) => `saved_snippets-${userId}`;
