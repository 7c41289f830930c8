import type { Provider } from '@nestjs/common';
import { AddSubmessageHandler } from './submessage.handler';
import { SubmessageQueries } from './submessage.queries';
import { SubmessagesMessageExtension } from './submessages.message-extension';

/** The submessages area's handlers and queries, registered by ApplicationModule. */
export const SUBMESSAGES_HANDLERS: Provider[] = [AddSubmessageHandler];
export const SUBMESSAGES_QUERIES: Provider[] = [SubmessageQueries, SubmessagesMessageExtension];
