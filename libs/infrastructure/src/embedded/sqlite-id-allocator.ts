import type Database from 'better-sqlite3';
import { decodePosition, encodePosition, type GlobalPosition, type IdAllocatorPort } from '@app/application';

/** Named sequences in one SQLite table; the write lock makes every allocation unique and increasing. */
export class SqliteIdAllocator implements IdAllocatorPort {
  private readonly allocate;
  private readonly current;
  private readonly store;
  private readonly advance;
  private readonly readScan;
  private readonly writeScan;

  constructor(readonly db: Database.Database) {
    db.exec('CREATE TABLE IF NOT EXISTS sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL)');
    // How far the log was scanned for ids (advanceSequencesFromLog): one row, a padded decimal position.
    db.exec('CREATE TABLE IF NOT EXISTS sequences_log_scan (id INTEGER PRIMARY KEY CHECK (id = 1), position TEXT NOT NULL)');
    this.advance = db.prepare<[{ name: string; value: number }]>(
      `INSERT INTO sequences (name, value) VALUES (@name, @value)
       ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)`,
    );
    this.readScan = db.prepare<[], { position: string }>('SELECT position FROM sequences_log_scan WHERE id = 1');
    this.writeScan = db.prepare<[{ position: string }]>(
      `INSERT INTO sequences_log_scan (id, position) VALUES (1, @position)
       ON CONFLICT (id) DO UPDATE SET position = max(position, excluded.position)`,
    );
    this.current = db.prepare<[string], number>('SELECT value FROM sequences WHERE name = ?').pluck();
    this.store = db.prepare<[string, number]>(
      `INSERT INTO sequences (name, value) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)`,
    );
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
    return this.allocateNow(sequence, count);
  }

  /**
   * nextBlock, synchronously: for a transaction on this connection that takes an id together
   * with other writes (SqliteEventStore.useIdSequences), which the id then commits or rolls back with.
   */
  allocateNow(sequence: string, count: number): number {
    if (!Number.isInteger(count) || count < 1) throw new Error('count must be a positive integer');
    const { value } = this.allocate.get({ name: sequence, count })!;
    return value - count + 1;
  }

  /**
   * The sequences a group commit of the event store takes ids of (beginGroup … endGroup, inside
   * its write transaction): each read once, counted here, and written once at the end, instead of
   * an upsert per id (a send takes one; issue #23). Undefined outside a group.
   */
  private group: Map<string, { taken: number; stored: number }> | undefined;

  /** Starts counting the ids a write transaction on this connection takes (takeInGroup). */
  beginGroup(): void {
    this.group = new Map();
  }

  /**
   * The next id of `sequence` inside the group: the write lock the group's transaction holds
   * keeps every other connection from taking one meanwhile.
   */
  takeInGroup(sequence: string): number {
    const group = this.group;
    if (!group) throw new Error('takeInGroup outside a group (beginGroup)');
    let entry = group.get(sequence);
    if (!entry) {
      const stored = (this.current.get(sequence) as number | undefined) ?? 0;
      group.set(sequence, (entry = { taken: stored, stored }));
    }
    return ++entry.taken;
  }

  /** Gives back `id`, the last id of `sequence` taken in the group (an append that was refused): the next take has it again. */
  giveBackInGroup(sequence: string, id: number): void {
    const entry = this.group?.get(sequence);
    if (entry && entry.taken === id) entry.taken = id - 1;
  }

  /** Writes the ids the group took, inside its transaction (which then commits or rolls them back with its rows). */
  endGroup(): void {
    const group = this.group;
    this.group = undefined;
    for (const [name, { taken, stored }] of group ?? []) if (taken !== stored) this.store.run(name, taken);
  }

  /** Forgets a group whose transaction failed: none of its ids was written. */
  abandonGroup(): void {
    this.group = undefined;
  }

  async advanceTo(sequence: string, atLeast: number): Promise<void> {
    if (!Number.isSafeInteger(atLeast) || atLeast < 1) return;
    this.advance.run({ name: sequence, value: atLeast });
  }

  async logScannedThrough(): Promise<GlobalPosition | undefined> {
    const row = this.readScan.get();
    return row ? decodePosition(row.position) : undefined;
  }

  async markLogScanned(position: GlobalPosition): Promise<void> {
    this.writeScan.run({ position: encodePosition(position) });
  }
}
