import { USER_SETTINGS_EVENT_TYPES, userSettingsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { SettingsClientEvents } from './settings.client-events';
import { SettingsRegisterSections } from './settings.register';
import type { Provider } from '@nestjs/common';
import { ChangeUserEmailHandler } from '../users/change-user-email.handler';
import { ChangeUserPasswordHandler } from '../users/change-user-password.handler';
import { ConfirmEmailChangeHandler } from './confirm-email-change.handler';
import { EmailChangeChecks } from './email-change.checks';
import { SettingsWriter } from './settings-writer';
import { UpdateOwnSettingsHandler } from './update-own-settings.handler';
import { UpdateSettingsForUsersHandler } from './update-settings-for-users.handler';
import { UserSettingsQueries } from './user-settings.queries';

const handlers: Provider[] = [
  UpdateOwnSettingsHandler,
  UpdateSettingsForUsersHandler,
  ConfirmEmailChangeHandler,
  ChangeUserEmailHandler,
  ChangeUserPasswordHandler,
  SettingsWriter,
  EmailChangeChecks,
];
const queries: Provider[] = [UserSettingsQueries];

/** A user's settings, and the email and password changes they confirm. */
export const settingsArea = defineArea({
  name: 'settings',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: SettingsClientEvents,
  registerSections: SettingsRegisterSections,
  deciders: [userSettingsDecider],
  events: USER_SETTINGS_EVENT_TYPES,
});
