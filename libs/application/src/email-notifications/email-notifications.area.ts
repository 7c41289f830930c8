import { defineArea } from '../area-descriptor';
import { MissedMessageEmails } from './missed-message-emails';

/**
 * Email notifications of messages a user missed while away (docs/email.md, "Missed messages"): no
 * events and no projections of its own; a reactor in the background-jobs process keeps the
 * pending batches in the read store and mails them through the outbox.
 */
export const emailNotificationsArea = defineArea({
  name: 'email-notifications',
  providers: [MissedMessageEmails],
  exports: [MissedMessageEmails],
});
