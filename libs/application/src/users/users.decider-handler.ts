import { usersDecider, usersStream } from '@app/domain';
import { DeciderCommandHandler } from '../shared/decider-command-handler';

/** The users directory's commands: one append on the organization's `users-<realmId>`. */
export const usersHandler = DeciderCommandHandler({ ...usersDecider, mapToStreamId: ({ data }) => usersStream(data.realmId) });
