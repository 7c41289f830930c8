import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { ScheduledMessageQueries } from './scheduled-message.queries';

/** `scheduled_messages`: the user's pending scheduled messages. */
@Injectable()
export class ScheduledMessagesRegisterSections implements AreaRegisterSections {
  constructor(private readonly scheduledMessages: ScheduledMessageQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'scheduled_messages', read: async (actor) => ({ scheduled_messages: await this.scheduledMessages.list(actor.userId!) }) }];
  }
}
