import { channelsDecider, channelsStream } from '@app/domain';
import { DeciderCommandHandler } from '../shared/decider-command-handler';

/** The organization's channel commands: one append on `channels-<realmId>`. */
export const channelsHandler = DeciderCommandHandler({ ...channelsDecider, mapToStreamId: ({ data }) => channelsStream(data.realmId) });
