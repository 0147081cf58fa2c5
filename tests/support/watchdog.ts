// Test servers end with the test process that started them, however it ends. run() kills a file's
// process that outran its time, and a SIGKILL runs no handler of ours (no after hook, no exit handler),
// so a server would run on for the rest of the run: its timers cost about 5 % of a core idle, and it
// holds its ports. A small shell of its own session (no terminal signal reaches it; it ignores the
// others) holds the read end of a pipe whose write end only this process holds: when this process is
// gone, however it went, its read ends and it kills the server (or the server's process group). Once the
// server has exited, the watchdog is ended first, so it never signals a reused pid or group id.
import { spawn, type ChildProcess } from 'node:child_process';

/** Kills `child` (with `group`, the process group it leads: it was spawned detached) when this process ends. */
export function killWithThisProcess(child: ChildProcess, o: { group?: boolean } = {}): void {
  if (child.pid === undefined) return;
  const target = o.group ? `-${child.pid}` : String(child.pid);
  const watchdog = spawn('sh', ['-c', 'trap "" INT TERM HUP; read _; kill -KILL "$1" 2>/dev/null', 'sh', target], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  watchdog.on('error', () => undefined);
  watchdog.stdin!.on('error', () => undefined);
  // Neither keeps this process alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  child.once('exit', () => {
    if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
  });
}
