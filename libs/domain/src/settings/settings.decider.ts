import type { Decider } from '../shared/decider';
import { defaultUserSettings, type SettingProperty, type SettingValue } from './settings.catalog';
import type { UserSettingChanged, UserSettingsEvent } from './settings.events';
import { ConfirmationLinkError } from './settings.errors';
import { checkSettableForOthers, checkSettingValue } from './settings.rules';

type Meta = { realmId: number; userId: number; actorId: number | null; now: string };

/**
 * Change some of one user's settings (do_change_user_setting for each). `editedBySelf` is false
 * when an administrator changes them through `target_users`: security-sensitive settings are
 * refused then, and with `skipIfAlreadyEdited` a setting the user changed themselves is left alone.
 * `baseline` holds the read model's values, which stand for settings this stream never changed.
 */
export type ChangeUserSettings = {
  type: 'ChangeUserSettings';
  data: Meta & {
    editedBySelf: boolean;
    skipIfAlreadyEdited?: boolean;
    changes: { property: SettingProperty; value: SettingValue }[];
    baseline: Partial<Record<SettingProperty, SettingValue>>;
    /** The user's `user<id>@<domain>` address, recorded with a change of email_address_visibility. */
    dummyEmail?: string;
  };
};

/**
 * do_start_email_change_process. The handler checks the address against the organization first.
 * `keyDigest` is the SHA-256 of the confirmation key: the key is a secret and never enters the log;
 * the link mailed to the new address carries it, and following the link presents it again.
 */
export type RequestEmailChange = {
  type: 'RequestEmailChange';
  data: Meta & { currentEmail: string; newEmail: string; keyDigest: string; expiresAt: string };
};

/** The confirmation link was followed (confirm_email_change): the digest of the key it carried. */
export type ConfirmEmailChange = { type: 'ConfirmEmailChange'; data: Meta & { keyDigest: string } };

export type UserSettingsCommand = ChangeUserSettings | RequestEmailChange | ConfirmEmailChange;

type PendingEmailChange = { keyDigest: string; oldEmail: string; newEmail: string; expiresAt: string };
export type UserSettingsState = {
  /** Values set on this stream. */
  values: Partial<Record<SettingProperty, SettingValue>>;
  /** Settings the user changed themselves (RealmAuditLog rows with acting_user = modified_user). */
  editedBySelf: SettingProperty[];
  pendingEmailChange: PendingEmailChange | null;
};

/** The settings of one user (stream `user_settings-<userId>`). */
export const userSettingsDecider: Decider<UserSettingsCommand, UserSettingsEvent, UserSettingsState> = {
  // Version 2: the pending change holds the key's digest, not the key.
  snapshot: { name: 'user-settings', version: 2 },
  initialState: () => ({ values: {}, editedBySelf: [], pendingEmailChange: null }),

  decide: (command, state) => {
    const { realmId, userId, actorId, now: at } = command.data;
    switch (command.type) {
      case 'ChangeUserSettings': {
        const { editedBySelf, skipIfAlreadyEdited, changes, baseline, dummyEmail } = command.data;
        // Every change is checked before any is made.
        const checked = changes.map(({ property, value }) => {
          if (!editedBySelf) checkSettableForOthers(property);
          return { property, value: checkSettingValue(property, value) };
        });
        const events: UserSettingChanged[] = [];
        for (const { property, value } of checked) {
          if (!editedBySelf && skipIfAlreadyEdited && state.editedBySelf.includes(property)) continue;
          const oldValue = property in state.values ? state.values[property]! : (baseline[property] ?? defaultUserSettings()[property]);
          if (oldValue === value) continue;
          events.push({
            type: 'UserSettingChanged',
            data: {
              realmId, userId, property, oldValue, newValue: value, actorId, editedBySelf,
              ...(property === 'email_address_visibility' && dummyEmail !== undefined ? { dummyEmail } : {}),
              at,
            },
          });
        }
        return events;
      }
      case 'RequestEmailChange': {
        const { currentEmail, newEmail, keyDigest, expiresAt } = command.data;
        if (newEmail === currentEmail) return [];
        const revokedKeyDigests = state.pendingEmailChange ? [state.pendingEmailChange.keyDigest] : [];
        return [{ type: 'EmailChangeRequested', data: { realmId, userId, oldEmail: currentEmail, newEmail, keyDigest, expiresAt, revokedKeyDigests, actorId, at } }];
      }
      case 'ConfirmEmailChange': {
        const pending = state.pendingEmailChange;
        // A used or revoked link is reported like an expired one (get_object_from_key).
        if (!pending || pending.keyDigest !== command.data.keyDigest) throw ConfirmationLinkError.expired();
        if (Date.parse(at) > Date.parse(pending.expiresAt)) throw ConfirmationLinkError.expired();
        return [{ type: 'EmailChangeConfirmed', data: { realmId, userId, keyDigest: pending.keyDigest, oldEmail: pending.oldEmail, newEmail: pending.newEmail, at } }];
      }
    }
  },

  evolve: (state, event) => {
    switch (event.type) {
      case 'UserSettingChanged': {
        const { property, newValue, editedBySelf } = event.data;
        return {
          ...state,
          values: { ...state.values, [property]: newValue },
          editedBySelf: editedBySelf && !state.editedBySelf.includes(property) ? [...state.editedBySelf, property] : state.editedBySelf,
        };
      }
      case 'EmailChangeRequested': {
        const { keyDigest, oldEmail, newEmail, expiresAt } = event.data;
        return { ...state, pendingEmailChange: { keyDigest, oldEmail, newEmail, expiresAt } };
      }
      case 'EmailChangeConfirmed':
        return { ...state, pendingEmailChange: null };
      default:
        return state;
    }
  },
};
