/** A code playground as stored (Zulip's RealmPlayground); `realm_id` for queries. */
export type RealmPlaygroundDocument = {
  id: number;
  realm_id: number;
  name: string;
  pygments_language: string;
  url_template: string;
};

/** Zulip's RealmPlaygroundDict, as register and events return it. */
export type ApiRealmPlayground = { id: number; name: string; pygments_language: string; url_template: string };

export const REALM_PLAYGROUNDS = 'realm_playgrounds';

export const formatRealmPlayground = (doc: RealmPlaygroundDocument): ApiRealmPlayground => ({
  id: doc.id,
  name: doc.name,
  pygments_language: doc.pygments_language,
  url_template: doc.url_template,
});
