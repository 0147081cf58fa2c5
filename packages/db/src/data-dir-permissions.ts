import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR_LOCK_FILE } from './data-dir-lock';

// The embedded database's files hold what must stay secret (the WAL and the tables: FIX passwords,
// private keys, password hashes): no other local user may read them (DATA_DIR was created
// 0755 and PGlite's files 0666). The directory is made 0700 and what is ours in it 0700 (directories)
// and 0600 (files); the process's umask keeps group and others out of whatever it creates later. PGlite
// sets the mode of the files it unpacks on a first start itself (0666, umask or not), so they are
// tightened once it has opened.

/** A directory or file whose mode was tightened. */
export interface ModeChange {
  readonly path: string;
  /** Permission bits before and after, in octal ('755' → '700'). */
  readonly from: string;
  readonly to: string;
}

/** The process's umask takes group's and others' permissions off what it creates from now on. */
function restrictUmask(): void {
  try {
    process.umask(process.umask() | 0o077);
  } catch {
    // Worker threads may not change it; the modes are tightened below anyway.
  }
}

const octal = (mode: number) => (mode & 0o777).toString(8);

function tighten(path: string, changes: ModeChange[], recurse: boolean): void {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // gone meanwhile (a WAL segment recycled)
    throw err;
  }
  if (st.isSymbolicLink()) return; // never followed out of the directory
  const dir = st.isDirectory();
  if ((st.mode & 0o077) !== 0) {
    const to = (st.mode & 0o700) | (dir ? 0o700 : 0o600);
    chmodSync(path, to);
    changes.push({ path, from: octal(st.mode), to: octal(to) });
  }
  if (dir && recurse) for (const name of readdirSync(path)) tighten(join(path, name), changes, true);
}

/**
 * Creates the data directory 0700 if missing, and takes group's and others' permissions off it and off
 * what the desk keeps in it (the database directory `sub`, the lock file): what was changed. Other
 * files someone put in the directory are left as they are (it is closed to others anyway).
 */
export function secureDataDir(dataDir: string, sub: string): ModeChange[] {
  restrictUmask();
  mkdirSync(join(dataDir, sub), { recursive: true, mode: 0o700 });
  const changes: ModeChange[] = [];
  tighten(dataDir, changes, false);
  tighten(join(dataDir, sub), changes, true);
  tighten(join(dataDir, DATA_DIR_LOCK_FILE), changes, false);
  return changes;
}
