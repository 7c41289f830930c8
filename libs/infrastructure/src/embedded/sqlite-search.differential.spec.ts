import Database from 'better-sqlite3';
import { porterStem, searchWords } from '@app/domain';
import { ENGLISH_WORDS } from '@app/testing';
import { FTS5_TOKENIZER } from './sqlite-search';

/**
 * The domain's stemmer (used for highlighting and by the MongoDB index) and the embedded index's
 * FTS5 tokenizer must agree on every word, or a message would match without a highlight, or match
 * on one adapter set and not the other.
 */
describe('search words: the domain stemmer agrees with FTS5', () => {
  it.each([['English words and their forms', ENGLISH_WORDS], ['mixed case, accents, digits, punctuation', ['Running', 'CAFÉS', 'Naïvely', 'v2.0', 'e-mail', 'x_y', '12345', 'don\'t', 'Ærø', 'ﬁnal']]])(
    '%s',
    (_name, words) => {
      const db = new Database(':memory:');
      db.exec(`CREATE VIRTUAL TABLE t USING fts5(a, tokenize = "${FTS5_TOKENIZER}"); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
      const insert = db.prepare('INSERT INTO t (rowid, a) VALUES (?, ?)');
      words.forEach((word, i) => insert.run(i + 1, word));
      const fts5 = new Map<number, string[]>();
      for (const { doc, term } of db.prepare('SELECT doc, term FROM v ORDER BY doc, offset').all() as { doc: number; term: string }[]) {
        fts5.set(doc, [...(fts5.get(doc) ?? []), term]);
      }
      const differences = words
        .map((word, i) => ({ word, fts5: fts5.get(i + 1) ?? [], ours: searchWords(word).map(porterStem) }))
        .filter((d) => d.fts5.join(' ') !== d.ours.join(' '));
      expect(differences).toEqual([]);
      db.close();
    },
  );
});
