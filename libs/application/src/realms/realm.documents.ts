import type { RealmGroupSettings, RealmMessagingSettings } from '@app/domain';

/** An organization as `GET /server_settings` and `POST /register` describe it. */
export type RealmDocument = {
  id: number;
  string_id: string;
  name: string;
  description: string;
  date_created: number;
  deactivated: boolean;
  /** Messaging settings changed from Zulip's defaults (see realmMessagingSettingsOf). */
  messaging_settings?: Partial<RealmMessagingSettings>;
  /** Group settings changed from Zulip's defaults, by system group name. */
  group_settings?: Partial<RealmGroupSettings>;
};

export const REALMS = 'realms';
