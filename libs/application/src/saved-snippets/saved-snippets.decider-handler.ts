import { savedSnippetsDecider, savedSnippetsStream } from '@app/domain';
import { DeciderCommandHandler } from '../shared/decider-command-handler';

/** The saved snippet commands: one append on the user's `saved_snippets-<userId>`. */
export const savedSnippetsHandler = DeciderCommandHandler({ ...savedSnippetsDecider, mapToStreamId: ({ data }) => savedSnippetsStream(data.userId) });
