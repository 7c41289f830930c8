import { SCHEDULED_MESSAGE_EVENT_TYPES, SCHEDULED_MESSAGE_SEQUENCE, scheduledMessageDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { ScheduledMessagesClientEvents } from './scheduled-messages.client-events';
import { ScheduledMessagesRegisterSections } from './scheduled-messages.register';
import type { Provider } from '@nestjs/common';
import { DeleteScheduledMessageHandler } from './delete-scheduled-message.handler';
import { DeliverScheduledMessageHandler } from './deliver-scheduled-message.handler';
import { EditScheduledMessageHandler } from './edit-scheduled-message.handler';
import { ScheduleMessageHandler } from './schedule-message.handler';
import { ScheduledDeliveries } from './scheduled-deliveries';
import { ScheduledMessageCheck } from './scheduled-message-check';
import { ScheduledMessageJobs } from './scheduled-message-jobs';
import { ScheduledMessageQueries } from './scheduled-message.queries';

const handlers: Provider[] = [
  ScheduleMessageHandler,
  EditScheduledMessageHandler,
  DeleteScheduledMessageHandler,
  DeliverScheduledMessageHandler,
  ScheduledMessageCheck,
  ScheduledMessageJobs,
  ScheduledDeliveries,
];
const queries: Provider[] = [ScheduledMessageQueries];

/** Scheduled messages and reminders, and their deliveries. */
export const scheduledMessagesArea = defineArea({
  name: 'scheduled-messages',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: ScheduledMessagesClientEvents,
  registerSections: ScheduledMessagesRegisterSections,
  deciders: [scheduledMessageDecider],
  events: SCHEDULED_MESSAGE_EVENT_TYPES,
  idSequences: [{ sequence: SCHEDULED_MESSAGE_SEQUENCE, fields: ['scheduledMessageId'] }],
});
