import type { Actor, UserSettingsEvent } from '@app/domain';

/**
 * What other areas do once a change of settings is recorded (do_change_user_setting's
 * follow-ups). A seam: the drafts descriptor binds it (drafts/drafts-cleanup.side-effects.ts).
 */
export abstract class SettingsSideEffects {
  abstract afterChange(actor: Actor, userId: number, events: UserSettingsEvent[]): Promise<void>;
}
