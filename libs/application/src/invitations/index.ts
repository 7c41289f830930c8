export * from './invitation.commands';
export * from './invitation.documents';
export * from './invitation.queries';
export * from './invitations.area';
export * from './sign-up.handler';
