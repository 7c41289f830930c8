import type { OutboxMail } from '@app/application';

/**
 * nodemailer's message fields for an outbox mail. The Message-ID derives from the outbox id, so
 * a mail sent twice (a crash between the SMTP server's acceptance and the outbox's record of it)
 * carries one Message-ID, which mail stores and clients use to recognise duplicates.
 */
export function messageFields(mail: OutboxMail) {
  const domain = mail.from.includes('@') ? mail.from.slice(mail.from.lastIndexOf('@') + 1) : 'localhost';
  return {
    from: mail.fromName ? { name: mail.fromName, address: mail.from } : mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    messageId: `<${mail.id}@${domain}>`,
    date: new Date(mail.createdAt),
  };
}
