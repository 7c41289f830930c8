import type { Provider } from '@nestjs/common';
import { AddSubmessageHandler } from './submessage.handler';
import { SubmessageQueries } from './submessage.queries';

/** The submessages area's handlers and queries, registered by ApplicationModule. */
export const SUBMESSAGES_HANDLERS: Provider[] = [AddSubmessageHandler];
export const SUBMESSAGES_QUERIES: Provider[] = [SubmessageQueries];
