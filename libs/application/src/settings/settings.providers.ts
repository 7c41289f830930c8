import type { Provider } from '@nestjs/common';
import { ChangeUserEmailHandler } from '../users/change-user-email.handler';
import { ChangeUserPasswordHandler } from '../users/change-user-password.handler';
import { ConfirmEmailChangeHandler } from './confirm-email-change.handler';
import { EmailChangeChecks } from './email-change.checks';
import { DraftsCleanupSideEffects, SettingsSideEffects } from './settings-side-effects';
import { SettingsWriter } from './settings-writer';
import { UpdateOwnSettingsHandler } from './update-own-settings.handler';
import { UpdateSettingsForUsersHandler } from './update-settings-for-users.handler';
import { UserSettingsQueries } from './user-settings.queries';

/** The settings area's handlers, services and seams, registered by ApplicationModule. */
export const SETTINGS_HANDLERS: Provider[] = [
  UpdateOwnSettingsHandler,
  UpdateSettingsForUsersHandler,
  ConfirmEmailChangeHandler,
  ChangeUserEmailHandler,
  ChangeUserPasswordHandler,
  SettingsWriter,
  EmailChangeChecks,
  { provide: SettingsSideEffects, useClass: DraftsCleanupSideEffects },
];
export const SETTINGS_QUERIES: Provider[] = [UserSettingsQueries];
