/** An organization as `GET /server_settings` and `POST /register` describe it. */
export type RealmDocument = {
  id: number;
  string_id: string;
  name: string;
  description: string;
  date_created: number;
  deactivated: boolean;
};

export const REALMS = 'realms';
