/** A linkifier as stored (Zulip's RealmFilter); `realm_id` for queries, `order` for the list's order. */
export type LinkifierDocument = {
  id: number;
  realm_id: number;
  pattern: string;
  url_template: string;
  order: number;
};

/** Zulip's LinkifierDict, as GET /realm/linkifiers, register and events return it. */
export type ApiLinkifier = { pattern: string; url_template: string; id: number };

export const LINKIFIERS = 'realm_linkifiers';

export const formatLinkifier = (doc: LinkifierDocument): ApiLinkifier => ({ pattern: doc.pattern, url_template: doc.url_template, id: doc.id });
