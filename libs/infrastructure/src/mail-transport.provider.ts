import type { Provider } from '@nestjs/common';
import { join } from 'node:path';
import { MAIL_TRANSPORT, type MailTransportPort } from '@app/application';
import type { AppConfig } from '@app/config';
import { DirectoryMailTransport } from './mail/directory-mail-transport';
import { SmtpMailTransport } from './mail/smtp-mail-transport';

/** Where mails go when no SMTP server is configured (EMAIL_HOST unset). */
export const mailFolderPath = (config: AppConfig): string => join(config.dataDir, 'emails');

/** EMAIL_HOST set: its SMTP server; unset: a folder in DATA_DIR (docs/email.md). */
export function openMailTransport(config: AppConfig): MailTransportPort {
  return config.email.host ? new SmtpMailTransport(config.email) : new DirectoryMailTransport(mailFolderPath(config));
}

/** Closed with the application (Nest calls the hook on the instance the factory returned). */
export const mailTransportProvider = (config: AppConfig): Provider => ({
  provide: MAIL_TRANSPORT,
  useFactory: () => {
    const transport = openMailTransport(config);
    return Object.assign(transport, { onApplicationShutdown: () => transport.close() });
  },
});
