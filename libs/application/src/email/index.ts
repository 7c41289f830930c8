export * from './mail-delivery';
export * from './mailer';
export * from './email.area';
