export * from './email-notifications.area';
export * from './missed-message-emails';
export * from './missed-message-emails.documents';
export * from './missed-message.mails';
