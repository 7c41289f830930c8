/**
 * Issue 23: what one SQLite write transaction costs on this machine, with the embedded stores'
 * settings (WAL, synchronous=normal, see openSqlite), as a function of the pages it dirties. Each
 * transaction updates one small row in each of `pages` tables, so it writes exactly that many WAL
 * frames. The fixed part (BEGIN IMMEDIATE, COMMIT, WAL locks) against the part per page tells
 * whether joining two transactions (fewer commits) or touching fewer pages (fewer frames) is
 * the lever for a write path. In process, single-threaded, no other work.
 *
 *   node dist/bench/sqlite-commit-cost.js [--transactions 20000] [--pages 0,1,2,5,10,20,40]
 */
import { openSqlite } from '@app/infrastructure/embedded/sqlite';
import { join } from 'node:path';
import { fmtNum, intArg, parseArgs, progress, runMain, stringArg, tempDir } from './support';

async function main() {
  const args = parseArgs();
  const transactions = intArg(args, 'transactions', 20_000);
  const pageCounts = stringArg(args, 'pages', '0,1,2,5,10,20,40')
    .split(',')
    .map((p) => Number(p))
    .filter((p) => Number.isInteger(p) && p >= 0);
  const dir = tempDir('commit-cost');
  const db = openSqlite(join(dir.path, 'commit-cost.sqlite'));
  try {
    const tables = Math.max(...pageCounts, 0);
    for (let t = 0; t < tables; t++) {
      db.exec(`CREATE TABLE t${t} (id INTEGER PRIMARY KEY, v TEXT)`);
      db.prepare(`INSERT INTO t${t} VALUES (1, 'x')`).run();
    }
    const updates = Array.from({ length: tables }, (_, t) => db.prepare(`UPDATE t${t} SET v = ? WHERE id = 1`));
    const rows: { pages: number; cpu: number; system: number; wall: number }[] = [];
    for (const pages of pageCounts) {
      const write = db.transaction((i: number) => {
        for (let t = 0; t < pages; t++) updates[t].run(`v${i}`);
      });
      let i = 0;
      for (let w = 0; w < transactions / 10; w++) write.immediate(i++);
      const before = process.cpuUsage();
      const t0 = performance.now();
      for (let k = 0; k < transactions; k++) write.immediate(i++);
      const wall = ((performance.now() - t0) * 1000) / transactions;
      const used = process.cpuUsage(before);
      rows.push({ pages, cpu: (used.user + used.system) / transactions, system: used.system / transactions, wall });
      progress(`${pages} pages: ${fmtNum(rows[rows.length - 1].cpu, 1)} µs CPU per transaction`);
    }
    for (const r of rows) {
      process.stdout.write(
        `${String(r.pages).padStart(3)} pages dirtied: ${fmtNum(r.cpu, 1)} µs CPU (${fmtNum(r.system, 1)} system), ${fmtNum(r.wall, 1)} µs wall per transaction\n`,
      );
    }
    // Least squares over the runs that dirty pages: CPU = fixed + perPage × pages.
    const fit = rows.filter((r) => r.pages > 0);
    if (fit.length >= 2) {
      const n = fit.length;
      const sx = fit.reduce((a, r) => a + r.pages, 0);
      const sy = fit.reduce((a, r) => a + r.cpu, 0);
      const sxx = fit.reduce((a, r) => a + r.pages * r.pages, 0);
      const sxy = fit.reduce((a, r) => a + r.pages * r.cpu, 0);
      const perPage = (n * sxy - sx * sy) / (n * sxx - sx * sx);
      const fixed = (sy - perPage * sx) / n;
      process.stdout.write(`fit: ${fmtNum(fixed, 1)} µs per transaction + ${fmtNum(perPage, 2)} µs per dirtied page (CPU)\n`);
    }
  } finally {
    db.close();
    dir.remove();
  }
}

runMain(main);
