// Drives bench/order-clients.ts (the benchmark's FIX client sessions in a process of their own) over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientCommand, PhaseResult } from './order-clients';

const here = dirname(fileURLToPath(import.meta.url));

export interface OrderClientsProcess {
  readonly child: ChildProcess;
  /** Runs one phase and answers with its result (null for warmup and stop). */
  command(c: ClientCommand): Promise<PhaseResult | null>;
}

/**
 * Forks the clients, which log on to `port` as each of `compIds` (and as the drop copy session
 * `dropCopy`, which only receives); resolves once all are logged on.
 */
export async function startOrderClients(
  port: number,
  compIds: readonly string[],
  options: { dropCopy?: string } = {},
): Promise<OrderClientsProcess> {
  const child = fork(join(here, 'order-clients.ts'), [String(port), ...compIds], {
    execArgv: ['--import', 'tsx'],
    ...(options.dropCopy ? { env: { ...process.env, BENCH_DROP_COPY: options.dropCopy } } : {}),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  type Reply = { ok?: boolean; result?: PhaseResult | null; error?: string; ready?: boolean };
  const waiting: Array<{ resolve(m: Reply): void; reject(e: Error): void }> = [];
  let exited: Error | undefined;
  child.on('message', (m: Reply) => waiting.shift()?.resolve(m));
  child.on('exit', (code, signal) => {
    exited = new Error(`the order clients' process exited (${signal ?? code})`);
    for (const w of waiting.splice(0)) w.reject(exited);
  });
  const next = () => new Promise<Reply>((resolve, reject) => (exited ? reject(exited) : waiting.push({ resolve, reject })));
  await next(); // ready: every session logged on
  return {
    child,
    async command(c) {
      const answer = next();
      child.send(c);
      const m = await answer;
      if (!m.ok) throw new Error(`client process: ${m.error}`);
      return m.result ?? null;
    },
  };
}
