import { indexStems, stemSequence } from '@app/domain';

/**
 * The MongoDB search index (issue 37), of our own design rather than a `text` index: a `text`
 * index ORs a query's words (all-words needs phrases, which it matches unstemmed), allows one
 * `$text` per query and none under `$nor`/`$or`, and stems with Snowball, not the Porter stemmer
 * the embedded index and the highlighting use. So each message keeps the stems of its words
 * (the domain's search.rules.ts), a multikey index `{w: 1, _id: 1}` finds the messages having all
 * of a query's (`$all`), and phrases match the stems in order (`q`, `qt`).
 */
export type SearchFields = {
  /** Every stem of the topic and the content, stop words left out: what `$all` reads, indexed. */
  w: string[];
  /** The content's stems and the topic's (a move changes only the topic's; w is their union). */
  wc: string[];
  wt: string[];
  /** The content's and the topic's stems in order (stemSequence), for phrases. */
  q: string;
  qt: string;
};

export const contentSearchFields = (text: string): Pick<SearchFields, 'wc' | 'q'> => ({ wc: indexStems(text), q: stemSequence(text) });
export const topicSearchFields = (topic: string | null): Pick<SearchFields, 'wt' | 'qt'> => ({ wt: indexStems(topic ?? ''), qt: stemSequence(topic ?? '') });

export function searchFields(text: string, topic: string | null): SearchFields {
  const content = contentSearchFields(text);
  const ofTopic = topicSearchFields(topic);
  return { ...content, ...ofTopic, w: [...new Set([...ofTopic.wt, ...content.wc])] };
}
