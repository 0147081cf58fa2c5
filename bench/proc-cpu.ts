// CPU time of processes on this machine, from /proc (Linux): what a benchmark's phase cost each
// process (the server, its clients, PostgreSQL), on cores they share.
import { readdirSync, readFileSync } from 'node:fs';

/** user + system CPU seconds of /proc/<pid>/stat, or undefined when the process is gone; `name` filters by command name prefix. */
function statCpuSeconds(pid: string, name?: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    if (name !== undefined && !stat.slice(stat.indexOf('(') + 1, close).startsWith(name)) return undefined;
    const f = stat.slice(close + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return undefined; // the process ended meanwhile
  }
}

/** CPU seconds used so far by one process (0 once it is gone). */
export function processCpuSeconds(pid: number): number {
  return statCpuSeconds(String(pid)) ?? 0;
}

/** CPU seconds used so far by every PostgreSQL process on the machine (user + system). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) if (/^\d+$/.test(pid)) total += statCpuSeconds(pid, 'postgres') ?? 0;
  return total;
}
