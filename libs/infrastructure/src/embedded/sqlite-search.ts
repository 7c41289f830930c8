import type Database from 'better-sqlite3';
import { phraseSequence, porterStem, searchWords } from '@app/domain';

/**
 * The embedded search index (issue 37): an FTS5 table over um_messages' topic and search text
 * (external content: the text is stored once, in um_messages), kept in step by triggers on every
 * insert, delete and change of either column, so that sends, edits, moves, deletes and rebuilds
 * all reach it whatever statement makes them. See docs/messages.md.
 */

/**
 * FTS5's porter stemmer over unicode61 (case folding, Unicode word boundaries), diacritics removed
 * ("café" finds "cafe"): the domain's searchWords and porterStem do the same (a differential test
 * pins them together), so highlighting and the MongoDB index agree with it.
 */
export const FTS5_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/** Table and triggers. `columnsize=0`: nothing ranks by length, so the per-row sizes are not stored. */
const TABLE = `CREATE VIRTUAL TABLE IF NOT EXISTS um_search USING fts5(
  topic, search, content = 'um_messages', content_rowid = 'id', columnsize = 0, tokenize = '${FTS5_TOKENIZER}')`;
const DELETE_OLD = "INSERT INTO um_search (um_search, rowid, topic, search) VALUES ('delete', old.id, old.topic, old.search);";
const INSERT_NEW = 'INSERT INTO um_search (rowid, topic, search) VALUES (new.id, new.topic, new.search);';
const DELETE_TRIGGER = `CREATE TRIGGER IF NOT EXISTS um_search_ad AFTER DELETE ON um_messages BEGIN ${DELETE_OLD} END`;
const TRIGGERS = [
  `CREATE TRIGGER IF NOT EXISTS um_search_ai AFTER INSERT ON um_messages BEGIN ${INSERT_NEW} END`,
  DELETE_TRIGGER,
  `CREATE TRIGGER IF NOT EXISTS um_search_au AFTER UPDATE OF topic, search ON um_messages
     WHEN old.topic IS NOT new.topic OR old.search IS NOT new.search BEGIN ${DELETE_OLD} ${INSERT_NEW} END`,
];

/**
 * Creates the index if missing (inside the caller's write transaction). A database from before
 * issue 37 has messages and no index: the index is built from them here, once (the upgrade step of
 * docs/operations.md). Returns whether it was built.
 */
export function prepareSearchIndex(db: Database.Database): boolean {
  const exists = searchIndexExists(db);
  db.exec(TABLE);
  for (const trigger of TRIGGERS) db.exec(trigger);
  // A deleted or edited message's words leave the index's pages at once, not at a later segment
  // merge (erasure is real: docs/personal-data.md); deletes and edits are rare, so the cost is small.
  db.exec("INSERT INTO um_search (um_search, rank) VALUES ('secure-delete', 1)");
  if (exists) return false;
  db.exec("INSERT INTO um_search (um_search) VALUES ('rebuild')");
  return true;
}

export function searchIndexExists(db: Database.Database): boolean {
  return db.prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'um_search'").get() !== undefined;
}

/**
 * Empties um_messages and the index (reset): the index at once, rather than one 'delete' per row
 * through the trigger, which is dropped for the statement (inside the caller's transaction).
 */
export function deleteAllMessages(db: Database.Database): void {
  if (!searchIndexExists(db)) return void db.exec('DELETE FROM um_messages'); // deferred (a fresh load)
  db.exec('DROP TRIGGER IF EXISTS um_search_ad');
  db.exec('DELETE FROM um_messages');
  db.exec("INSERT INTO um_search (um_search) VALUES ('delete-all')");
  db.exec(DELETE_TRIGGER);
}

/** An FTS5 string: the text in double quotes, inner quotes doubled (FTS5 tokenizes it; several words become a phrase). */
const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** The MATCH expression of a search: every word, and every phrase, in either column (FTS5 ANDs terms side by side). */
export function searchMatch(words: string[], phrases: string[][]): string {
  return [...words.map(quoted), ...phrases.map((p) => quoted(p.join(' ')))].join(' ');
}

/**
 * The same test as searchMatch's MATCH, on a message's topic and search text in memory (the
 * domain's words and stems, which the differential test pins to the tokenizer): every word in
 * either column, every phrase as consecutive words of one column. For messages already read by
 * another index (searchWithFewReadable in sqlite-user-message-store.ts), where asking FTS5 about
 * one row would cost as much as walking the word's whole list of matches.
 */
export function searchTextMatcher(words: string[], phrases: string[][]): (topic: string | null, search: string) => boolean {
  const wanted = new Set(words.map(porterStem));
  const sequences = phrases.map(phraseSequence);
  return (topic, search) => {
    const columns = [searchWords(topic ?? '').map(cachedStem), searchWords(search).map(cachedStem)];
    for (const w of wanted) if (!columns.some((c) => c.includes(w))) return false;
    if (sequences.length === 0) return true;
    const joined = columns.map((c) => (c.length === 0 ? '' : ` ${c.join(' ')} `));
    return sequences.every((s) => joined.some((c) => c.includes(s)));
  };
}

/** Stems of words already seen (a language's vocabulary repeats), forgotten when there are many. */
const STEMS = new Map<string, string>();
function cachedStem(word: string): string {
  let stem = STEMS.get(word);
  if (stem === undefined) {
    if (STEMS.size >= 100_000) STEMS.clear();
    STEMS.set(word, (stem = porterStem(word)));
  }
  return stem;
}
