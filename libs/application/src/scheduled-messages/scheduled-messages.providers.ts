import type { Provider } from '@nestjs/common';
import { DeleteScheduledMessageHandler } from './delete-scheduled-message.handler';
import { DeliverScheduledMessageHandler } from './deliver-scheduled-message.handler';
import { EditScheduledMessageHandler } from './edit-scheduled-message.handler';
import { ScheduleMessageHandler } from './schedule-message.handler';
import { ScheduledDeliveries } from './scheduled-deliveries';
import { ScheduledMessageCheck } from './scheduled-message-check';
import { ScheduledMessageJobs } from './scheduled-message-jobs';
import { ScheduledMessageQueries } from './scheduled-message.queries';

/** The scheduled-messages area's handlers and services, registered by ApplicationModule. */
export const SCHEDULED_MESSAGES_HANDLERS: Provider[] = [
  ScheduleMessageHandler,
  EditScheduledMessageHandler,
  DeleteScheduledMessageHandler,
  DeliverScheduledMessageHandler,
  ScheduledMessageCheck,
  ScheduledMessageJobs,
  ScheduledDeliveries,
];
export const SCHEDULED_MESSAGES_QUERIES: Provider[] = [ScheduledMessageQueries];
