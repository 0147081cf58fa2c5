import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

// The embedded database (PGlite) serves one node: one process may have a data directory open. A lock
// file names the process holding it; a second node on the same directory is refused with why, and a
// lock left by a process that is gone (kill -9, a crash) is taken over.

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

export const DATA_DIR_LOCK_FILE = 'fixdesk-node.lock';

/** Thrown when another live process holds the data directory. */
export class DataDirInUseError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's process.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? { pid: o.pid, host: o.host, since: String(o.since ?? '') } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the data directory for this process; answers the function that gives it back. The same
 * process may take it again (a handle reopened after a simulated crash); another live process on this
 * host holding it is refused.
 */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, DATA_DIR_LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(me), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
    }
    const owner = readOwner(file);
    if (owner && owner.pid !== process.pid && (owner.host !== me.host || alive(owner.pid))) {
      throw new DataDirInUseError(
        `the embedded database in ${dir} is in use by another FixDesk node (process ${owner.pid} on ${owner.host} since ${owner.since}). ` +
          'The embedded database serves a single node: to run several nodes, give them one PostgreSQL database (DATABASE_URL). ' +
          `If no node is running, remove ${file}.`,
      );
    }
    // Ours already, or left by a process that is gone: take it over.
    unlinkSync(file);
  }
  return () => {
    if (readOwner(file)?.pid === process.pid) {
      try {
        unlinkSync(file);
      } catch {
        // Already gone.
      }
    }
  };
}
