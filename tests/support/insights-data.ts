// Desk Insights tests (tests/integration/insights-api.test.ts): the data they seed, as a model, and
// each chart's figures computed from that model in TypeScript, independently of the SQL under test.
import type { Db } from '@fixdesk/db';

export const A = 'SGX_CLIENT_1';
export const B = 'EEX_CLIENT_1';
/** A drop copy connector: never a client in these figures, whatever rows name it. */
export const DC = 'DC_INSIGHTS';

// ── the seeded data, as a model the expectations are computed from ──

interface Act {
  type: 'ACCEPT' | 'REJECT' | 'FILL' | 'PARTIAL_FILL';
  /** Seconds after the order's arrival. */
  after: number;
  user: string;
  qty?: number;
  px?: number;
  leg?: number;
  reason?: number;
}
interface Leg {
  symbol: string;
  month: string;
  ratio: number;
  price: number | null;
}
interface ModelOrder {
  key: string;
  client: string;
  symbol: string;
  month: string | null;
  exchange: string | null;
  qty: number;
  cum: number;
  at: string;
  legs?: Leg[];
  actions: Act[];
}

export const ORDERS: ModelOrder[] = [
  // Before the range: counted nowhere.
  {
    key: 'o0',
    client: A,
    symbol: 'C5TC',
    month: '202612',
    exchange: 'SGX',
    qty: 50,
    cum: 50,
    at: '2026-10-20T12:00:00Z',
    actions: [
      { type: 'ACCEPT', after: 1, user: 'broker' },
      { type: 'FILL', after: 2, user: 'broker', qty: 50, px: 20000 },
    ],
  },
  {
    key: 'o1',
    client: A,
    symbol: 'C5TC',
    month: '202612',
    exchange: 'SGX',
    qty: 10,
    cum: 10,
    at: '2026-11-02T02:00:00Z',
    actions: [
      { type: 'ACCEPT', after: 5, user: 'broker' },
      { type: 'FILL', after: 65, user: 'broker', qty: 10, px: 27000 },
    ],
  },
  // No exchange of its own: its security's (SGX).
  {
    key: 'o2',
    client: A,
    symbol: 'P4TC',
    month: '202701',
    exchange: null,
    qty: 20,
    cum: 5,
    at: '2026-11-02T03:00:00Z',
    actions: [
      { type: 'ACCEPT', after: 2, user: 'admin' },
      { type: 'PARTIAL_FILL', after: 32, user: 'broker', qty: 5, px: 15000 },
    ],
  },
  // 23:30 UTC on the 2nd: 07:30 on the 3rd in Singapore.
  {
    key: 'o3',
    client: A,
    symbol: 'FO380',
    month: '202612',
    exchange: null,
    qty: 4,
    cum: 4,
    at: '2026-11-02T23:30:00Z',
    actions: [
      { type: 'ACCEPT', after: 10, user: 'broker' },
      { type: 'FILL', after: 30, user: 'broker', qty: 4, px: 450.5 },
    ],
  },
  {
    key: 'o4',
    client: B,
    symbol: 'TTF',
    month: '202612',
    exchange: 'EEX',
    qty: 3,
    cum: 0,
    at: '2026-11-03T09:00:00Z',
    actions: [{ type: 'REJECT', after: 8, user: 'broker', reason: 3 }],
  },
  {
    key: 'o5',
    client: B,
    symbol: 'TTF',
    month: '202701',
    exchange: 'EEX',
    qty: 6,
    cum: 6,
    at: '2026-11-03T10:00:00Z',
    actions: [
      { type: 'ACCEPT', after: 4, user: 'broker' },
      { type: 'FILL', after: 16, user: 'admin', qty: 6, px: 35.25 },
    ],
  },
  // A spread filled leg by leg: each leg's lots on its own contract, at its own price; one order.
  {
    key: 'o6',
    client: A,
    symbol: 'C5TC',
    month: null,
    exchange: 'SGX',
    qty: 2,
    cum: 2,
    at: '2026-11-03T05:00:00Z',
    legs: [
      { symbol: 'C5TC', month: '202612', ratio: 1, price: null },
      { symbol: 'P4TC', month: '202612', ratio: 1, price: null },
    ],
    actions: [
      { type: 'ACCEPT', after: 3, user: 'admin' },
      { type: 'PARTIAL_FILL', after: 43, user: 'broker', qty: 2, px: 26000, leg: 0 },
      { type: 'FILL', after: 53, user: 'broker', qty: 2, px: 14000, leg: 1 },
    ],
  },
  // A spread filled at its own price: each leg takes its ratio of the lots, priced only where the leg has a price.
  {
    key: 'o7',
    client: B,
    symbol: 'TTF',
    month: null,
    exchange: 'EEX',
    qty: 5,
    cum: 5,
    at: '2026-11-04T08:00:00Z',
    legs: [
      { symbol: 'TTF', month: '202612', ratio: 1, price: 34 },
      { symbol: 'TTF', month: '202701', ratio: 2, price: null },
    ],
    actions: [
      { type: 'ACCEPT', after: 6, user: 'broker' },
      { type: 'FILL', after: 106, user: 'broker', qty: 5, px: -1.5 },
    ],
  },
  // Not answered yet.
  { key: 'o8', client: A, symbol: 'C5TC', month: '202612', exchange: 'SGX', qty: 7, cum: 0, at: '2026-11-04T01:00:00Z', actions: [] },
  {
    key: 'o9',
    client: A,
    symbol: 'C5TC',
    month: '202701',
    exchange: 'SGX',
    qty: 1,
    cum: 1,
    at: '2026-11-04T01:30:00Z',
    actions: [
      { type: 'ACCEPT', after: 1, user: 'broker' },
      { type: 'FILL', after: 2, user: 'broker', qty: 1, px: 25000 },
    ],
  },
  // Accepted, not filled yet.
  {
    key: 'o10',
    client: B,
    symbol: 'TTF',
    month: '202612',
    exchange: 'EEX',
    qty: 2,
    cum: 0,
    at: '2026-11-04T12:00:00Z',
    actions: [{ type: 'ACCEPT', after: 7, user: 'broker' }],
  },
  // London's clocks go back at 01:00 UTC on 25 October 2026: 01:30 BST, then 01:30 GMT an hour later.
  { key: 'bst', client: A, symbol: 'C5TC', month: '202612', exchange: 'SGX', qty: 1, cum: 0, at: '2026-10-25T00:30:00Z', actions: [] },
  { key: 'gmt', client: A, symbol: 'C5TC', month: '202612', exchange: 'SGX', qty: 1, cum: 0, at: '2026-10-25T01:30:00Z', actions: [] },
  // The drop copy connector's rows: left out of every figure.
  {
    key: 'odc',
    client: DC,
    symbol: 'C5TC',
    month: '202612',
    exchange: 'SGX',
    qty: 100,
    cum: 100,
    at: '2026-11-03T04:00:00Z',
    actions: [
      { type: 'ACCEPT', after: 1, user: 'broker' },
      { type: 'FILL', after: 2, user: 'broker', qty: 100, px: 1 },
    ],
  },
];

interface ModelRefusal {
  client: string;
  symbol: string;
  exchange: string | null;
  at: string;
  reason: number;
}
const REFUSALS: ModelRefusal[] = [
  { client: A, symbol: 'NOPE', exchange: null, at: '2026-11-02T04:00:00Z', reason: 1 },
  { client: B, symbol: 'TTF', exchange: null, at: '2026-11-03T11:00:00Z', reason: 3 },
  { client: B, symbol: 'TTF', exchange: null, at: '2026-11-03T23:30:00Z', reason: 3 },
  { client: A, symbol: 'C5TC', exchange: 'SGX', at: '2026-11-04T02:00:00Z', reason: 6 },
  { client: DC, symbol: 'C5TC', exchange: 'SGX', at: '2026-11-02T05:00:00Z', reason: 99 },
];

interface ModelSession {
  client: string;
  start: string;
  end: string | null;
  reason: string | null;
  /** An administrator's correction of the recorded values (these are in force). */
  correction?: { session_end?: string | null; disconnect_reason?: string | null };
}
const SESSIONS: ModelSession[] = [
  { client: A, start: '2026-11-02T00:30:00Z', end: '2026-11-02T12:00:00Z', reason: null },
  { client: A, start: '2026-11-02T23:40:00Z', end: '2026-11-03T01:00:00Z', reason: 'Heartbeat timeout' },
  { client: A, start: '2026-11-03T02:00:00Z', end: '2026-11-03T02:00:00Z', reason: 'logon refused: wrong password' },
  { client: B, start: '2026-11-03T07:00:00Z', end: null, reason: null },
  {
    client: B,
    start: '2026-11-04T06:00:00Z',
    end: '2026-11-04T07:00:00Z',
    reason: 'Connection reset',
    correction: { disconnect_reason: null },
  },
  { client: DC, start: '2026-11-03T03:00:00Z', end: '2026-11-03T04:00:00Z', reason: 'Connection reset' },
];

interface ModelMessage {
  client: string;
  type: string;
  direction: 'TX' | 'RX';
  at: string;
  /** The simulated client's own side of the session (sender = the client): not the desk's record of it. */
  clientSide?: boolean;
}
const MESSAGES: ModelMessage[] = [
  { client: A, type: '2', direction: 'RX', at: '2026-11-02T05:00:00Z' },
  { client: A, type: '3', direction: 'TX', at: '2026-11-02T23:45:00Z' },
  { client: B, type: '3', direction: 'RX', at: '2026-11-03T08:00:00Z' },
  { client: B, type: '2', direction: 'TX', at: '2026-11-03T08:01:00Z' },
  { client: B, type: '0', direction: 'RX', at: '2026-11-03T08:02:00Z' },
  { client: A, type: '3', direction: 'TX', at: '2026-11-03T09:00:00Z', clientSide: true },
  { client: DC, type: '2', direction: 'RX', at: '2026-11-03T09:00:00Z' },
];

const TRADING = new Set([A, B]);

// ── seeding ──

const plus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

export async function seedInsights(db: Db): Promise<void> {
  await db.query(
    `INSERT INTO client_connectors (comp_id, execution_id_prefix, target_comp_id, session_type) VALUES ($1, 'DCI', 'FIXDESK', 'drop_copy')`,
    [DC],
  );
  let n = 0;
  for (const o of ORDERS) {
    n++;
    const filled = o.cum === o.qty;
    const rejected = o.actions.some((a) => a.type === 'REJECT');
    const status = rejected ? '8' : filled ? '2' : o.cum > 0 ? '1' : o.actions.length ? '0' : 'A';
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO orders (brokerorderid, clordid, client_connector_id, sendercompid, targetcompid, session_date, msg_type, symbol,
                           maturity_month_year, side, ordtype, price, orderqty, exchange, ordstatus, cumqty, leavesqty, transacttime, created_at)
       SELECT $1::text, $2::text, c.id, c.comp_id, 'FIXDESK', ($3::timestamptz)::date, $4::text, $5::text, $6::text, '1', '2', 1,
              $7::numeric, $8::text, $9::text, $10::numeric,
              CASE WHEN $9::text IN ('8', '2') THEN 0 ELSE $7::numeric - $10::numeric END, $3::timestamptz, $3::timestamptz
         FROM client_connectors c WHERE c.comp_id = $11
       RETURNING id`,
      [`INS-${n}`, `CL-INS-${n}`, o.at, o.legs ? 'AB' : 'D', o.symbol, o.month, o.qty, o.exchange, status, o.cum, o.client],
    );
    const id = rows[0]!.id;
    for (const [i, l] of (o.legs ?? []).entries()) {
      await db.query(
        `INSERT INTO order_legs (order_id, leg_index, leg_symbol, leg_maturity_month_year, leg_side, leg_ratio_qty, leg_price)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, i, l.symbol, l.month, i === 0 ? '1' : '2', l.ratio, l.price],
      );
    }
    for (const a of o.actions) {
      const at = plus(o.at, a.after);
      await db.query(
        `INSERT INTO order_actions (order_id, brokerorderid, clordid, sendercompid, symbol, action_type, user_id, fill_qty, fill_price, leg_index, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [id, `INS-${n}`, `CL-INS-${n}`, o.client, o.symbol, a.type, a.user, a.qty ?? null, a.px ?? null, a.leg ?? null, at],
      );
      if (a.type === 'REJECT') {
        await db.query(
          `INSERT INTO execution_reports (order_id, execid, clordid, orderid, exectype, ordstatus, ordrejreason, transacttime, created_at, sendercompid)
           VALUES ($1, $2, $3, $4, '8', '8', $5, $6, $6, $7)`,
          [id, `EX-INS-${n}`, `CL-INS-${n}`, `INS-${n}`, a.reason, at, o.client],
        );
      }
    }
  }
  for (const [i, r] of REFUSALS.entries()) {
    await db.query(
      `INSERT INTO refused_orders (sendercompid, targetcompid, client_connector_id, msg_type, clordid, symbol, exchange, ordrejreason, reject_text, created_at)
       SELECT $1::text, 'FIXDESK', (SELECT id FROM client_connectors WHERE comp_id = $1::text), 'D', $2::text, $3::text, $4::text, $5::int,
              'refused', $6::timestamptz`,
      [r.client, `RF-${i}`, r.symbol, r.exchange, r.reason, r.at],
    );
  }
  for (const s of SESSIONS) {
    await db.query(
      `INSERT INTO client_sessions (comp_id, session_start, session_end, disconnect_reason, correction, corrected_by, corrected_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        s.client,
        s.start,
        s.end,
        s.reason,
        s.correction ? JSON.stringify(s.correction) : null,
        s.correction ? 'admin' : null,
        s.correction ? s.end : null,
      ],
    );
  }
  for (const [i, m] of MESSAGES.entries()) {
    await db.query(
      `INSERT INTO fix_messages (begin_string, sender_comp_id, target_comp_id, direction, msg_seq_num, msg_type, raw_fix, created_at)
       VALUES ('FIX.4.4', $1, $2, $3, $4, $5, 'raw', $6)`,
      [m.clientSide ? m.client : 'FIXDESK', m.clientSide ? 'FIXDESK' : m.client, m.direction, 9000 + i, m.type, m.at],
    );
  }
}

// ── the expectations, computed here from the model ──

export interface Filters {
  from: string;
  to: string;
  tz?: string;
  clients?: string[];
  exchange?: string;
  bucket?: 'hour' | 'day';
}

export function periodOf(iso: string, tz: string, bucket: 'hour' | 'day'): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  return bucket === 'day' ? day : `${day}T${parts.hour}:00`;
}

export const bucketOf = (f: Filters) => f.bucket ?? (Date.parse(f.to) - Date.parse(f.from) <= 25 * 3_600_000 ? 'hour' : 'day');
const inRange = (f: Filters, iso: string) => Date.parse(iso) >= Date.parse(f.from) && Date.parse(iso) < Date.parse(f.to);

const SECURITIES = new Map<string, { exchange: string | null; size: number; currency: string }>();
/** The security master's exchanges, contract sizes and currencies, as the expectations need them. */
export async function loadSecurities(db: Db): Promise<void> {
  const { rows } = await db.query<{ symbol: string; exchange: string | null; contract_size: string | null; currency: string }>(
    'SELECT symbol, exchange, contract_size, currency FROM security_master',
  );
  for (const r of rows) SECURITIES.set(r.symbol, { exchange: r.exchange, size: Number(r.contract_size ?? 1), currency: r.currency });
}
const exchangeOf = (o: { exchange: string | null; symbol: string }) => o.exchange ?? SECURITIES.get(o.symbol)?.exchange ?? null;
const clientChosen = (f: Filters, client: string) => TRADING.has(client) && (!f.clients || f.clients.includes(client));
const orderChosen = (f: Filters, o: { client: string; exchange: string | null; symbol: string }, anyClient = false) =>
  (anyClient ? TRADING.has(o.client) : clientChosen(f, o.client)) && (!f.exchange || exchangeOf(o) === f.exchange);

export function expectedOrderFlow(f: Filters) {
  const tz = f.tz ?? 'UTC';
  const bucket = bucketOf(f);
  const points = new Map<string, { received: number; accepted: number; refused: number; rejected: number; filled: number }>();
  const at = (iso: string) => {
    const p = periodOf(iso, tz, bucket);
    if (!points.has(p)) points.set(p, { received: 0, accepted: 0, refused: 0, rejected: 0, filled: 0 });
    return points.get(p)!;
  };
  for (const o of ORDERS.filter((o) => orderChosen(f, o))) {
    if (inRange(f, o.at)) at(o.at).received++;
    for (const a of o.actions) {
      const when = plus(o.at, a.after);
      if (!inRange(f, when)) continue;
      if (a.type === 'ACCEPT') at(when).accepted++;
      if (a.type === 'REJECT') at(when).rejected++;
      if (a.type === 'FILL') at(when).filled++;
    }
  }
  for (const r of REFUSALS.filter((r) => orderChosen(f, r) && inRange(f, r.at))) {
    at(r.at).received++;
    at(r.at).refused++;
  }
  return [...points.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([period, v]) => ({ period, ...v }));
}

/** percentile_cont: linear interpolation between the two nearest ranks. */
function percentile(sorted: number[], p: number): number {
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
interface Figures {
  count: number;
  p50Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
}
function figures(ms: number[]): Figures {
  const s = [...ms].sort((a, b) => a - b);
  return s.length
    ? { count: s.length, p50Ms: percentile(s, 0.5), p90Ms: percentile(s, 0.9), p99Ms: percentile(s, 0.99) }
    : { count: 0, p50Ms: null, p90Ms: null, p99Ms: null };
}

export function expectedTimes(f: Filters) {
  const tz = f.tz ?? 'UTC';
  const bucket = bucketOf(f);
  const measures = {
    answer: [] as { period: string; user: string; ms: number }[],
    firstFill: [] as { period: string; user: string; ms: number }[],
  };
  const waiting = { answer: 0, firstFill: 0 };
  for (const o of ORDERS.filter((o) => orderChosen(f, o) && inRange(f, o.at))) {
    const period = periodOf(o.at, tz, bucket);
    const answer = o.actions.find((a) => a.type === 'ACCEPT' || a.type === 'REJECT');
    if (answer) measures.answer.push({ period, user: answer.user, ms: answer.after * 1000 });
    const accept = o.actions.find((a) => a.type === 'ACCEPT');
    const fill = o.actions.find((a) => a.type === 'FILL' || a.type === 'PARTIAL_FILL');
    if (accept && fill) measures.firstFill.push({ period, user: fill.user, ms: (fill.after - accept.after) * 1000 });
    if (!answer) waiting.answer++;
    if (accept && !fill) waiting.firstFill++;
  }
  const group = (rows: { period: string; user: string; ms: number }[], by: 'period' | 'user') => {
    const m = new Map<string, number[]>();
    for (const r of rows) m.set(r[by], [...(m.get(r[by]) ?? []), r.ms]);
    return [...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, ms]) => ({ key, ...figures(ms) }));
  };
  const measure = (rows: { period: string; user: string; ms: number }[], waiting: number) => ({
    overall: figures(rows.map((r) => r.ms)),
    waiting,
    byPeriod: group(rows, 'period'),
    byUser: group(rows, 'user'),
  });
  return { answer: measure(measures.answer, waiting.answer), firstFill: measure(measures.firstFill, waiting.firstFill) };
}

interface ExpectedFill {
  client: string;
  symbol: string;
  month: string | null;
  lots: number;
  px: number | null;
}
function expectedFills(f: Filters, anyClient: boolean): ExpectedFill[] {
  const out: ExpectedFill[] = [];
  for (const o of ORDERS.filter((o) => orderChosen(f, o, anyClient))) {
    for (const a of o.actions) {
      if ((a.type !== 'FILL' && a.type !== 'PARTIAL_FILL') || !inRange(f, plus(o.at, a.after))) continue;
      if (!o.legs) out.push({ client: o.client, symbol: o.symbol, month: o.month, lots: a.qty!, px: a.px! });
      else if (a.leg !== undefined) {
        const l = o.legs[a.leg]!;
        out.push({ client: o.client, symbol: l.symbol, month: l.month, lots: a.qty!, px: a.px! });
      } else for (const l of o.legs) out.push({ client: o.client, symbol: l.symbol, month: l.month, lots: a.qty! * l.ratio, px: l.price });
    }
  }
  return out;
}

export function expectedClients(f: Filters) {
  const deskFills = expectedFills(f, true);
  const deskLots = deskFills.reduce((s, x) => s + x.lots, 0);
  const clients = [...TRADING].filter((c) => clientChosen(f, c));
  const rows = clients.map((client) => {
    const book = ORDERS.filter((o) => o.client === client && orderChosen(f, o) && inRange(f, o.at));
    const refusals = REFUSALS.filter((r) => r.client === client && orderChosen(f, r) && inRange(f, r.at));
    const rejects = ORDERS.filter((o) => o.client === client && orderChosen(f, o)).flatMap((o) =>
      o.actions.filter((a) => a.type === 'REJECT' && inRange(f, plus(o.at, a.after))),
    );
    const reasons = new Map<string, number>();
    for (const r of refusals) reasons.set(`refused ${r.reason}`, (reasons.get(`refused ${r.reason}`) ?? 0) + 1);
    for (const r of rejects) reasons.set(`rejected ${r.reason}`, (reasons.get(`rejected ${r.reason}`) ?? 0) + 1);
    const ordered = book.reduce((s, o) => s + o.qty, 0);
    const filled = book.reduce((s, o) => s + o.cum, 0);
    const lots = deskFills.filter((x) => x.client === client).reduce((s, x) => s + x.lots, 0);
    return {
      client,
      orders: book.length + refusals.length,
      refused: refusals.length,
      rejected: rejects.length,
      ordered,
      filled,
      fillRatio: ordered > 0 ? filled / ordered : null,
      reasons: [...reasons.entries()].sort(([a], [b]) => a.localeCompare(b)),
      lots,
      volumeShare: deskLots > 0 ? lots / deskLots : null,
    };
  });
  const active = rows.filter((r) => r.orders > 0 || r.rejected > 0 || r.lots > 0);
  active.sort((a, b) => b.lots - a.lots || b.orders - a.orders || a.client.localeCompare(b.client));
  return { deskLots, clients: active };
}

export function expectedContracts(f: Filters) {
  const per = new Map<
    string,
    { symbol: string; month: string | null; lots: number; notional: number; fills: number; currency: string | null }
  >();
  for (const x of expectedFills(f, false)) {
    const k = `${x.symbol} ${x.month}`;
    const sec = SECURITIES.get(x.symbol);
    const c = per.get(k) ?? { symbol: x.symbol, month: x.month, lots: 0, notional: 0, fills: 0, currency: sec?.currency ?? null };
    c.lots += x.lots;
    c.fills++;
    if (x.px !== null) c.notional += x.lots * x.px * (sec?.size ?? 1);
    per.set(k, c);
  }
  return [...per.values()]
    .sort((a, b) => b.lots - a.lots || a.symbol.localeCompare(b.symbol) || String(a.month).localeCompare(String(b.month)))
    .slice(0, 15);
}

export function expectedSessions(f: Filters) {
  const tz = f.tz ?? 'UTC';
  const points = new Map<
    string,
    { logons: number; refusedLogons: number; disconnects: number; sessionRejects: number; resendRequests: number }
  >();
  const at = (iso: string, client: string) => {
    const k = `${periodOf(iso, tz, 'day')} ${client}`;
    if (!points.has(k)) points.set(k, { logons: 0, refusedLogons: 0, disconnects: 0, sessionRejects: 0, resendRequests: 0 });
    return points.get(k)!;
  };
  for (const s of SESSIONS.filter((s) => clientChosen(f, s.client))) {
    const end = s.correction && 'session_end' in s.correction ? s.correction.session_end! : s.end;
    const reason = s.correction && 'disconnect_reason' in s.correction ? s.correction.disconnect_reason! : s.reason;
    const refused = reason?.startsWith('logon refused:') ?? false;
    if (inRange(f, s.start)) at(s.start, s.client)[refused ? 'refusedLogons' : 'logons']++;
    if (end && inRange(f, end) && reason && !refused) at(end, s.client).disconnects++;
  }
  for (const m of MESSAGES.filter((m) => !m.clientSide && clientChosen(f, m.client) && inRange(f, m.at))) {
    if (m.type === '3') at(m.at, m.client).sessionRejects++;
    if (m.type === '2') at(m.at, m.client).resendRequests++;
  }
  return [...points.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => ({ period: k.split(' ')[0]!, client: k.split(' ')[1]!, ...v }));
}
