import { draftsDecider, draftsStream } from '@app/domain';
import { DeciderCommandHandler } from '../shared/decider-command-handler';

/** The draft commands: one append on the user's `drafts-<userId>`. */
export const draftsHandler = DeciderCommandHandler({ ...draftsDecider, mapToStreamId: ({ data }) => draftsStream(data.userId) });
