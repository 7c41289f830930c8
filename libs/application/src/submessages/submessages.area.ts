import { SUBMESSAGE_EVENT_TYPES, submessagesDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { SubmessagesMessageExtension } from './submessages.message-extension';
import { SubmessagesClientEvents } from './submessages.client-events';
import type { Provider } from '@nestjs/common';
import { AddSubmessageHandler } from './submessage.handler';
import { SubmessageQueries } from './submessage.queries';

const handlers: Provider[] = [AddSubmessageHandler];
const queries: Provider[] = [SubmessageQueries];

/** Submessages of widget messages (polls, todo lists); a widget message's first one is allocated when it is sent. */
export const submessagesArea = defineArea({
  name: 'submessages',
  // What the area adds to message objects and narrows (messages/message-extensions.ts).
  providers: [...handlers, ...queries, SubmessagesMessageExtension],
  exports: queries,
  clientEvents: SubmessagesClientEvents,
  deciders: [submessagesDecider],
  events: SUBMESSAGE_EVENT_TYPES,
  idSequences: [{ sequence: 'submessage', fields: ['submessageId'] }],
});
