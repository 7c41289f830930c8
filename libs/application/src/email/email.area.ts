import { defineArea } from '../area-descriptor';
import { MailDelivery } from './mail-delivery';
import { Mailer } from './mailer';

/**
 * Outgoing email (docs/email.md): the Mailer that commands queue mail with, and the delivery
 * that sends the durable outbox. No events and no read models: mails carry secrets.
 */
export const emailArea = defineArea({
  name: 'email',
  providers: [Mailer, MailDelivery],
  exports: [Mailer, MailDelivery],
});
