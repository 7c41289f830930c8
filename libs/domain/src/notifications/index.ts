export * from './missed-message-email.rules';
