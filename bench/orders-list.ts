// GET /api/orders at size: 100,000 orders of today (each with a party and two execution reports, as
// the intake and one broker action leave them), read through the real route of a running server.
// Prints the time of the answer (cold and warm) and its size.
//
//   npx tsx bench/orders-list.ts [--orders N] [--db pglite|postgres]
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { DatabaseKind } from '@fixdesk/db';
import { createTestDatabase } from '@fixdesk/db/testing';
import pino from 'pino';
import { startServer } from '../apps/server/src/server';
import { DEMO_PASSWORD, testConfig } from '../tests/support/server';
import { machineDescription, writeSection } from './benchmarks-md';

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '100000' },
    db: { type: 'string', default: 'postgres' },
    'no-write': { type: 'boolean', default: false },
  },
});
const N = Number(args.orders);

export async function measureOrderList(
  kind: DatabaseKind,
  count: number,
): Promise<{ coldMs: number; warmMs: number; bytes: number; orders: number; withoutReportsMs: number }> {
  const database = await createTestDatabase(kind, { migrate: false });
  const config = { ...testConfig(), logLevel: 'silent' as const };
  const server = await startServer(config, { db: database.db, logger: pino({ level: 'silent' }), testClient: { ports: 'off' } });
  try {
    await database.db.query(
      `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol,
                           security_type, maturity_month_year, side, ordtype, price, orderqty, timeinforce, exchange, currency,
                           ordstatus, cumqty, leavesqty, avgpx, transacttime, accepted_by)
       SELECT 'BO' || lpad(nextval('broker_order_seq')::text, 8, '0'), 'LIST-' || g, c.id, c.comp_id, 'FIXDESK', current_date, 'D',
              (ARRAY['C5TC','P4TC','S10TC','C3','C5','C7'])[1 + g % 6], 'FUT', '202612',
              CASE WHEN g % 2 = 0 THEN '1' ELSE '2' END, '2', 20000 + (g % 400) * 25, 10, '1', 'SGX', 'USD', '0', 0, 10, 0, now(), 'broker'
         FROM generate_series(1, $1::int) AS g JOIN client_connectors c ON c.comp_id = 'SGX_CLIENT_1'`,
      [count],
    );
    await database.db.query(
      `INSERT INTO order_parties (order_id, leg_index, position, party_id, party_id_source, party_role)
       SELECT id, NULL, 0, 'TRADER' || (id % 20), 'D', 11 FROM orders WHERE clordid LIKE 'LIST-%'`,
    );
    await database.db.query(
      `INSERT INTO execution_reports (order_id, execid, sendercompid, clordid, orderid, exectype, ordstatus, side, symbol, orderqty, price,
                                      lastqty, lastpx, cumqty, avgpx, leavesqty, transacttime, sent_seq_num, sent_at)
       SELECT o.id, 'SGX-' || o.id || '-' || k, o.sendercompid, o.clordid, o.brokerorderid, x.t, x.t, o.side, o.symbol, o.orderqty, o.price,
              0, 0, 0, 0, o.orderqty, now(), 1, now()
         FROM orders o CROSS JOIN (VALUES (1, 'A'), (2, '0')) AS x(k, t) WHERE o.clordid LIKE 'LIST-%'`,
    );
    await database.db.query('ANALYZE');
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'broker', password: DEMO_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const get = async (q = '') => {
      const t0 = performance.now();
      const r = await fetch(`${server.url}/api/orders${q}`, {
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
      });
      const body = await r.arrayBuffer();
      return { ms: performance.now() - t0, bytes: body.byteLength, orders: (JSON.parse(Buffer.from(body).toString()) as unknown[]).length };
    };
    const cold = await get();
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) warm.push((await get()).ms);
    const lean: number[] = [];
    for (let i = 0; i < 3; i++) lean.push((await get('?includeExecReports=false')).ms);
    return { coldMs: cold.ms, warmMs: Math.min(...warm), bytes: cold.bytes, orders: cold.orders, withoutReportsMs: Math.min(...lean) };
  } finally {
    await server.close();
    await database.dispose();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const startedAt = new Date();
  const load0 = loadavg()[0]!;
  const r = await measureOrderList(args.db as DatabaseKind, N);
  console.log(JSON.stringify(r));
  if (!args['no-write']) {
    const m = machineDescription();
    writeSection(
      join(dirname(fileURLToPath(import.meta.url)), '..', 'BENCHMARKS.md'),
      'orders-list',
      `
## Order list: GET /api/orders at ${N.toLocaleString('en-US')} orders

Run ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${args.db}. Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}; 1-minute load average ${load0.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end.
${N.toLocaleString('en-US')} orders of today, each with a trader party and two execution reports, read through the running server's route (HTTP on loopback, no compression), best of three after a first (cold) read.

| request | time | answer |
| --- | ---: | ---: |
| GET /api/orders (with execReports, the API default), first read | ${r.coldMs.toFixed(0)} ms | ${(r.bytes / 1e6).toFixed(1)} MB, ${r.orders.toLocaleString('en-US')} orders |
| the same, warm | ${r.warmMs.toFixed(0)} ms | |
| GET /api/orders?includeExecReports=false (what the blotter asks for, in chunks) | ${r.withoutReportsMs.toFixed(0)} ms | |
`,
    );
  }
  process.exit(0);
}
