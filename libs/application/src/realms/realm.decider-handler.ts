import { realmDecider, realmStream } from '@app/domain';
import { DeciderCommandHandler } from '../shared/decider-command-handler';

/** An organization's own commands (settings, deactivation): one append on `realm-<realmId>`. */
export const realmHandler = DeciderCommandHandler({ ...realmDecider, mapToStreamId: ({ data }) => realmStream(data.realmId) });
