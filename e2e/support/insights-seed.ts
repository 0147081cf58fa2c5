// The Insights browser test's data (e2e/insights.e2e.ts): orders, their actions, refusals, FIX sessions and
// session messages over the last five UTC days and today, for three clients on two exchanges, written into
// a fresh data directory before its server starts. Times are relative to the run's clock, so the screen's
// named ranges (today, last 7 days) cover them whatever the date. The test compares the screen with the
// API's answers; this file only makes the data varied enough for every chart to have something to show.
import { openDb, type Db } from '@fixdesk/db';

export const SGX = 'SGX_CLIENT_1';
export const EEX = 'EEX_CLIENT_1';
/** A third client, named like a spreadsheet formula: its name must reach a CSV file as text. */
export const BALTIC = 'BALTIC_CLIENT_1';
export const BALTIC_NAME = '=HYPERLINK("http://example.invalid","Baltic")';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The start of the UTC day `daysAgo` days before today. */
export function utcDayStart(daysAgo: number, now = Date.now()): number {
  return Math.floor(now / DAY) * DAY - daysAgo * DAY;
}

function monthAhead(months: number, now = Date.now()): string {
  const d = new Date(now);
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  return `${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
}

interface Act {
  type: 'ACCEPT' | 'REJECT' | 'FILL' | 'PARTIAL_FILL';
  after: number;
  user: string;
  qty?: number;
  px?: number;
  reason?: number;
}
interface SeedOrder {
  client: string;
  symbol: string;
  exchange: string;
  qty: number;
  cum: number;
  at: number;
  actions: Act[];
}

const CONTRACT: Record<string, { symbol: string; exchange: string; px: number }> = {
  [SGX]: { symbol: 'C5TC', exchange: 'SGX', px: 27000 },
  [EEX]: { symbol: 'TTF', exchange: 'EEX', px: 35.5 },
  [BALTIC]: { symbol: 'FO380', exchange: 'SGX', px: 450 },
};

/** Orders on each of the last five days (1 to 3 per client and day), answered in four ways, and two today. */
function orders(now: number): SeedOrder[] {
  const out: SeedOrder[] = [];
  const clients = [SGX, EEX, BALTIC];
  for (let k = 1; k <= 5; k++) {
    clients.forEach((client, ci) => {
      const n = ((k + ci) % 3) + 1;
      for (let j = 0; j < n; j++) {
        const { symbol, exchange, px } = CONTRACT[client]!;
        const qty = 5 + j + ci;
        const at = utcDayStart(k, now) + (7 + j * 3 + ci) * HOUR + k * 60_000;
        const user = (k + j) % 2 ? 'broker' : 'admin';
        const kind = (k + j + ci) % 4;
        const actions: Act[] =
          kind === 0
            ? [
                { type: 'ACCEPT', after: 4 + k, user },
                { type: 'FILL', after: 60 + k * 7, user: 'broker', qty, px },
              ]
            : kind === 1
              ? [
                  { type: 'ACCEPT', after: 12 + j, user },
                  { type: 'PARTIAL_FILL', after: 40 + j * 5, user: 'broker', qty: 2, px },
                ]
              : kind === 2
                ? [{ type: 'REJECT', after: 8 + ci, user, reason: ci === 1 ? 3 : 99 }]
                : [];
        const cum = actions.reduce((s, a) => s + (a.qty ?? 0), 0);
        out.push({ client, symbol, exchange, qty, cum, at, actions });
      }
    });
  }
  const today = Math.max(utcDayStart(0, now), now - 30 * 60_000);
  out.push(
    {
      client: SGX,
      symbol: 'C5TC',
      exchange: 'SGX',
      qty: 3,
      cum: 3,
      at: today,
      actions: [
        { type: 'ACCEPT', after: 2, user: 'broker' },
        { type: 'FILL', after: 5, user: 'broker', qty: 3, px: 26900 },
      ],
    },
    { client: EEX, symbol: 'TTF', exchange: 'EEX', qty: 4, cum: 0, at: today, actions: [] },
  );
  return out;
}

async function insertOrder(db: Db, o: SeedOrder, n: number, month: string): Promise<void> {
  const rejected = o.actions.some((a) => a.type === 'REJECT');
  const status = rejected ? '8' : o.cum === o.qty ? '2' : o.cum > 0 ? '1' : o.actions.length ? '0' : 'A';
  const at = new Date(o.at).toISOString();
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol,
                         maturity_month_year, side, ordtype, price, orderqty, exchange, ordstatus, cumqty, leavesqty, transacttime, created_at)
     SELECT $1::text, $2::text, c.id, c.comp_id, 'FIXDESK', ($3::timestamptz)::date, 'D', $4::text, $5::text, '1', '2', $6::numeric,
            $7::numeric, $8::text, $9::text, $10::numeric,
            CASE WHEN $9::text IN ('8', '2') THEN 0 ELSE $7::numeric - $10::numeric END, $3::timestamptz, $3::timestamptz
       FROM client_connectors c WHERE c.comp_id = $11
     RETURNING id`,
    [`E2E-INS-${n}`, `CL-E2E-INS-${n}`, at, o.symbol, month, CONTRACT[o.client]!.px, o.qty, o.exchange, status, o.cum, o.client],
  );
  const id = rows[0]!.id;
  for (const a of o.actions) {
    const when = new Date(o.at + a.after * 1000).toISOString();
    await db.query(
      `INSERT INTO order_actions (order_id, brokerorderid, clordid, sendercompid, symbol, action_type, user_id, fill_qty, fill_price, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [id, `E2E-INS-${n}`, `CL-E2E-INS-${n}`, o.client, o.symbol, a.type, a.user, a.qty ?? null, a.px ?? null, when],
    );
    if (a.type === 'REJECT')
      await db.query(
        `INSERT INTO execution_reports (order_id, execid, clordid, orderid, exectype, ordstatus, ordrejreason, transacttime, created_at, sendercompid)
         VALUES ($1, $2, $3, $4, '8', '8', $5, $6, $6, $7)`,
        [id, `EX-E2E-INS-${n}`, `CL-E2E-INS-${n}`, `E2E-INS-${n}`, a.reason, when, o.client],
      );
  }
}

/** Writes the data into the embedded database of a data directory (the server is not running yet). */
export async function seedInsightsDataDir(dataDir: string, now = Date.now()): Promise<void> {
  const db = await openDb({ dataDir });
  try {
    await db.query(
      `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, client_name) VALUES ($1, 'BAL', 'FIXDESK', $2)`,
      [BALTIC, BALTIC_NAME],
    );
    const month = monthAhead(2, now);
    for (const [i, o] of orders(now).entries()) await insertOrder(db, o, i + 1, month);
    // Refused at intake: an unknown symbol (EEX, two days), a duplicate (SGX).
    const refusals = [
      { client: EEX, symbol: 'NOPE', exchange: 'EEX', at: utcDayStart(1, now) + 9 * HOUR, reason: 1 },
      { client: EEX, symbol: 'NOPE', exchange: 'EEX', at: utcDayStart(3, now) + 9 * HOUR, reason: 1 },
      { client: SGX, symbol: 'C5TC', exchange: 'SGX', at: utcDayStart(2, now) + 10 * HOUR, reason: 6 },
    ];
    for (const [i, r] of refusals.entries())
      await db.query(
        `INSERT INTO refused_orders (sendercompid, targetcompid, client_connector_id, msg_type, clordid, symbol, exchange, ordrejreason, reject_text, created_at)
         SELECT $1::text, 'FIXDESK', (SELECT id FROM client_connectors WHERE comp_id = $1::text), 'D', $2::text, $3::text, $4::text, $5::int,
                'refused', $6::timestamptz`,
        [r.client, `RF-E2E-${i}`, r.symbol, r.exchange, r.reason, new Date(r.at).toISOString()],
      );
    // A session a day per client; EEX dropped by a heartbeat timeout two days ago and refused a logon four days ago.
    for (let k = 1; k <= 5; k++)
      for (const client of [SGX, EEX, BALTIC]) {
        const start = utcDayStart(k, now) + 6 * HOUR;
        const dropped = client === EEX && k === 2;
        await db.query(`INSERT INTO client_sessions (comp_id, session_start, session_end, disconnect_reason) VALUES ($1, $2, $3, $4)`, [
          client,
          new Date(start).toISOString(),
          new Date(start + (dropped ? 3 : 12) * HOUR).toISOString(),
          dropped ? 'Heartbeat timeout' : null,
        ]);
      }
    await db.query(`INSERT INTO client_sessions (comp_id, session_start, session_end, disconnect_reason) VALUES ($1, $2, $2, $3)`, [
      EEX,
      new Date(utcDayStart(4, now) + 5 * HOUR).toISOString(),
      'logon refused: wrong password',
    ]);
    // Session-level messages: resend requests and rejects, either way. None for SGX_CLIENT_1: the live order
    // comes from its session, whose sequence numbers are read from its stored messages (docs/adr/0016).
    const messages = [
      { client: BALTIC, type: '2', direction: 'RX', at: utcDayStart(1, now) + 8 * HOUR },
      { client: BALTIC, type: '3', direction: 'TX', at: utcDayStart(3, now) + 8 * HOUR },
      { client: EEX, type: '2', direction: 'TX', at: utcDayStart(2, now) + 8 * HOUR },
      { client: EEX, type: '2', direction: 'RX', at: utcDayStart(2, now) + 9 * HOUR },
    ];
    for (const [i, m] of messages.entries())
      await db.query(
        `INSERT INTO fix_messages (begin_string, sender_comp_id, target_comp_id, direction, msg_seq_num, msg_type, raw_fix, created_at)
         VALUES ('FIX.4.4', 'FIXDESK', $1, $2, $3, $4, 'raw', $5)`,
        [m.client, m.direction, 90_000 + i, m.type, new Date(m.at).toISOString()],
      );
  } finally {
    await db.close();
  }
}
