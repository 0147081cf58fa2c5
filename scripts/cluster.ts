// npm run cluster: several FixDesk nodes on one PostgreSQL database on this machine (docs/adr/0012).
// Node i (from 1) listens on PORT_BASE + i - 1 for HTTP and FIX_PORT_BASE + i - 1 for FIX, as NODE_ID
// node-i. The first node migrates and seeds the database; the others start once it is up. Ctrl-C
// stops them all. Everything else comes from the environment as for `npm start` (ADMIN_PASSWORD, …).
//   DATABASE_URL   the shared database (required: the embedded database serves a single node)
//   NODES          how many nodes (default 2)
//   PORT_BASE      first HTTP port (default 3000)
//   FIX_PORT_BASE  first FIX port (default 9876)
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error(
    'npm run cluster needs DATABASE_URL (postgres://…): several nodes share one PostgreSQL database; the embedded database serves one node only.',
  );
  process.exit(2);
}
const count = Number(process.env.NODES ?? 2);
const portBase = Number(process.env.PORT_BASE ?? 3000);
const fixBase = Number(process.env.FIX_PORT_BASE ?? 9876);
if (!Number.isInteger(count) || count < 1 || count > 16) {
  console.error('NODES must be a whole number from 1 to 16');
  process.exit(2);
}

const children: ChildProcess[] = [];
let stopping = false;

function startNode(i: number): Promise<void> {
  const name = `node-${i}`;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ID: name, PORT: String(portBase + i - 1), FIX_PORT: String(fixBase + i - 1) };
  // The simulated clients' control ports are per connector: the first node serves them.
  if (i > 1) env.TEST_CLIENT_PORTS = process.env.TEST_CLIENT_PORTS === 'auto' ? 'auto' : 'off';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        console.log(`[${name}] ${line}`);
        if (line.includes('FixDesk is running at')) resolve();
      });
    }
    child.on('exit', (code, signal) => {
      console.log(`[${name}] exited (${signal ?? code})`);
      reject(new Error(`${name} stopped before it was up`));
      if (!stopping) stopAll(1);
    });
  });
}

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  const exit = () => process.exit(code);
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined))).then(exit, exit);
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

try {
  // The first node migrates and seeds; the rest find the database ready.
  await startNode(1);
  await Promise.all(Array.from({ length: count - 1 }, (_, k) => startNode(k + 2)));
  const list = Array.from({ length: count }, (_, k) => `node-${k + 1}: http://localhost:${portBase + k}  FIX 127.0.0.1:${fixBase + k}`);
  console.log(
    `\n  ${count} FixDesk nodes on one database:\n    ${list.join('\n    ')}\n  A FIX client lists the acceptors as SocketConnectHost/Port, SocketConnectHost1/Port1, …\n`,
  );
} catch (err) {
  console.error((err as Error).message);
  stopAll(1);
}
