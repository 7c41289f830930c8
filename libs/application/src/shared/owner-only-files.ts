import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data directory holds every secret of the installation (the event log, the read models, the
 * upload-signing key, uploads) and an export holds the whole log: nothing there is for other local
 * accounts. Directories are created 0700 and files 0600, whatever the process's umask; the
 * entrypoints also set the umask to 077 for whatever a library creates.
 */
export const OWNER_ONLY_DIR_MODE = 0o700;
export const OWNER_ONLY_FILE_MODE = 0o600;

/** mkdir -p with mode 0700 (the new directories; an existing one is tightened too). */
export function mkdirOwnerOnly(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIR_MODE });
  tighten(dir, OWNER_ONLY_DIR_MODE);
}

/** Creates `file` empty with mode 0600 unless it exists, and tightens it if it does: before a library opens it. */
export function touchOwnerOnly(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', OWNER_ONLY_FILE_MODE));
  tighten(file, OWNER_ONLY_FILE_MODE);
}

/** Removes the group and other bits of an existing file or directory (a missing one is left alone). */
export function tighten(path: string, mode: number): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (stat.isSymbolicLink()) return; // chmod would follow it out of the directory
  if ((stat.mode & 0o777) !== mode) chmodSync(path, mode);
}

/**
 * At boot: the directory 0700 (created if missing), and everything under it, files 0600 and
 * directories 0700, for a data directory written before these modes (or by a process with a looser
 * umask). Symbolic links are not followed. Returns how many entries were changed.
 */
export function secureDirectoryTree(root: string): number {
  mkdirSync(root, { recursive: true, mode: OWNER_ONLY_DIR_MODE });
  let changed = 0;
  const visit = (path: string, isDirectory: boolean) => {
    const mode = isDirectory ? OWNER_ONLY_DIR_MODE : OWNER_ONLY_FILE_MODE;
    const before = lstatSync(path).mode & 0o777;
    tighten(path, mode);
    if (before !== mode) changed++;
    if (!isDirectory) return;
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      visit(join(path, entry.name), entry.isDirectory());
    }
  };
  visit(root, true);
  return changed;
}
