import type { Queryable } from '../../db';
import { refusedOrderRowsSql, type TextRow } from './list';

// Orders refused at intake (migration 0008): what the client sent, why it was refused, and the ExecID
// of the report that told it. Written after the refusal's own commit, several at once when they come
// together (a client over its rate); never on the path of an accepted order.

/** A refused new order: the wire text of its terms (they may be missing or malformed) and the refusal. */
export interface RefusedOrderRecord {
  /** From the orders' id block (IntakeIdPool.takeOrderId), or null for the sequence's next value. */
  id?: number | null;
  sendercompid: string;
  targetcompid: string;
  clientConnectorId: number | null;
  sessionDate: string | null;
  msgType: string;
  clordid: string | null;
  symbol: string | null;
  securityType: string | null;
  maturityMonthYear: string | null;
  side: string | null;
  ordType: string | null;
  price: string | null;
  orderQty: string | null;
  timeInForce: string | null;
  exchange: string | null;
  currency: string | null;
  account: string | null;
  text: string | null;
  legs: ReadonlyArray<Record<string, string | undefined>>;
  ordRejReason: number;
  rejectText: string;
  execId: string | null;
  transactTime: Date | null;
}

/**
 * Stores refused orders in one statement and answers them as order list rows (ORDER_LIST_COLUMNS.orders),
 * in the order given.
 */
export async function storeRefusedOrders(db: Queryable, records: readonly RefusedOrderRecord[]): Promise<TextRow[]> {
  if (!records.length) return [];
  const json = JSON.stringify(
    records.map((r, i) => ({
      ord: i,
      id: r.id ?? null,
      sendercompid: r.sendercompid,
      targetcompid: r.targetcompid,
      client_connector_id: r.clientConnectorId,
      session_date: r.sessionDate,
      msg_type: r.msgType,
      clordid: r.clordid,
      symbol: r.symbol,
      security_type: r.securityType,
      maturity_month_year: r.maturityMonthYear,
      side: r.side,
      ordtype: r.ordType,
      price: r.price,
      orderqty: r.orderQty,
      timeinforce: r.timeInForce,
      exchange: r.exchange,
      currency: r.currency,
      account: r.account,
      text: r.text,
      legs: r.legs,
      ordrejreason: r.ordRejReason,
      reject_text: r.rejectText,
      execid: r.execId,
      transacttime: r.transactTime?.toISOString() ?? null,
    })),
  );
  const { rows } = await db.query<TextRow>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(ord int, id int8, sendercompid text, targetcompid text, client_connector_id int, session_date date,
              msg_type text, clordid text, symbol text, security_type text, maturity_month_year text, side text, ordtype text, price text,
              orderqty text, timeinforce text, exchange text, currency text, account text, text text, legs jsonb, ordrejreason int,
              reject_text text, execid text, transacttime timestamptz)
     ),
     ins AS (
       INSERT INTO refused_orders (id, sendercompid, targetcompid, client_connector_id, session_date, msg_type, clordid, symbol, security_type,
                                   maturity_month_year, side, ordtype, price, orderqty, timeinforce, exchange, currency, account, text, legs,
                                   ordrejreason, reject_text, execid, transacttime)
       SELECT coalesce(id, nextval('orders_id_seq')), sendercompid, targetcompid, client_connector_id, session_date, msg_type, clordid, symbol, security_type, maturity_month_year,
              side, ordtype, price, orderqty, timeinforce, exchange, currency, account, text, coalesce(legs, '[]'::jsonb), ordrejreason,
              reject_text, execid, transacttime
         FROM input ORDER BY ord
       RETURNING *
     )
     ${refusedOrderRowsSql('ins')} ORDER BY r.id`,
    [json],
    { rowMode: 'array' },
  );
  return rows;
}

/** Refused orders as order list rows, by id (those that exist), in id order. */
export async function getRefusedOrderRows(db: Queryable, ids: readonly number[]): Promise<TextRow[]> {
  const { rows } = await db.query<TextRow>(`${refusedOrderRowsSql()} WHERE r.id = ANY($1::int8[]) ORDER BY r.id`, [[...ids]], {
    rowMode: 'array',
  });
  return rows;
}

/** A refused order as an order list row, by id; undefined when there is none. */
export async function getRefusedOrderRow(db: Queryable, id: number): Promise<TextRow | undefined> {
  const { rows } = await db.query<TextRow>(`${refusedOrderRowsSql()} WHERE r.id = $1::int8`, [id], { rowMode: 'array' });
  return rows[0];
}
