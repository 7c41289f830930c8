import type Database from 'better-sqlite3';
import type { IdAllocatorPort } from '@app/application';

/** Named sequences in one SQLite table; the write lock makes every allocation unique and increasing. */
export class SqliteIdAllocator implements IdAllocatorPort {
  private readonly allocate;

  constructor(db: Database.Database) {
    db.exec('CREATE TABLE IF NOT EXISTS sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL)');
    this.allocate = db.prepare<[{ name: string; count: number }], { value: number }>(
      `INSERT INTO sequences (name, value) VALUES (@name, @count)
       ON CONFLICT (name) DO UPDATE SET value = value + @count
       RETURNING value`,
    );
  }

  async next(sequence: string): Promise<number> {
    return this.nextBlock(sequence, 1);
  }

  async nextBlock(sequence: string, count: number): Promise<number> {
    if (!Number.isInteger(count) || count < 1) throw new Error('count must be a positive integer');
    const { value } = this.allocate.get({ name: sequence, count })!;
    return value - count + 1;
  }
}
