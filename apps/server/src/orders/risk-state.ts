import { getRiskOrders, loadClientRisk, type Db, type OrderBundle, type OrderLegRow, type OrderRow, type RiskOrderRow } from '@fixdesk/db';
import { newOrderShare, orderShare, positionKey, RiskBook, type ShareLeg, type SideCode } from '@fixdesk/domain';
import type { FastifyBaseLogger } from 'fastify';

/** One client's book on this node, and what it takes to keep it true while it loads. */
interface Held {
  book: RiskBook;
  ready: Promise<RiskBook>;
  loaded: boolean;
  /** Orders of the client at or below this id that the book does not know were counted in the load. */
  highWater: number;
  /** Orders changed while the load ran: read again once it is in. */
  changedWhileLoading: Set<number>;
  /** The month (YYYYMM) the book's contracts are live from. */
  month: string;
}

/** A stored order as its book counts it. */
function shareOf(r: RiskOrderRow): ShareLeg[] {
  return orderShare({
    ordStatus: r.ordstatus,
    side: r.side,
    symbol: r.symbol,
    maturity: r.maturity_month_year,
    orderQty: r.orderqty,
    cumQty: r.cumqty,
    leavesQty: r.leavesqty,
    pendingOrderQty: r.pending_orderqty,
    legs: r.legs.map((l) => ({ symbol: l.symbol, maturity: l.maturity, side: l.side, ratio: l.ratio, cumQty: l.cumqty })),
  });
}

/** A stored order, its legs and the quantity a pending replace asks for, as the risk book's row. */
export function riskRowFrom(
  o: OrderRow,
  legs: readonly OrderLegRow[],
  pendingOrderQty: string | null,
): RiskOrderRow & { sendercompid: string } {
  return {
    id: Number(o.id),
    sendercompid: o.sendercompid,
    side: o.side,
    symbol: o.symbol,
    maturity_month_year: o.maturity_month_year,
    ordstatus: o.ordstatus,
    orderqty: o.orderqty,
    cumqty: o.cumqty,
    leavesqty: o.leavesqty,
    pending_orderqty: pendingOrderQty,
    updated_at: o.updated_at,
    legs:
      o.msg_type === 'AB'
        ? legs.map((l) => ({
            symbol: l.leg_symbol,
            maturity: l.leg_maturity_month_year,
            side: l.leg_side,
            ratio: l.leg_ratio_qty,
            cumqty: l.leg_cumqty,
          }))
        : [],
  };
}

/** An order bundle (what the publisher reads of a changed order) as the risk book's row. */
export function riskRowOf(bundle: OrderBundle): (RiskOrderRow & { sendercompid: string }) | undefined {
  const o = bundle.orders[0];
  if (!o) return undefined;
  const pending = bundle.requests.find((r) => r.status === 'PENDING' && r.request_type === 'G');
  return riskRowFrom(o, bundle.legs, pending?.new_orderqty ?? null);
}

/** A new order's legs as the intake holds them. */
export interface NewOrderLegs {
  side: SideCode;
  symbol: string;
  maturity: string | null;
  orderQty: string;
  legs: { symbol: string; maturity: string | null; side: SideCode; ratio: string }[];
}

/**
 * Pre-trade risk held in memory (docs/adr/0013): per client whose FIX session this node holds, its
 * exposure per contract (risk.ts's RiskBook). Loaded once when the client's session starts here (one
 * bounded read, never one per order), then kept current by every change of the client's orders: the
 * intake reserves a new order's share before its commit and names it after; every other change (fills,
 * cancels, rejects, done for day, replaces, expiry, the kill switch, made here or on another node) is
 * the order as read after its commit, replacing its old share.
 */
export class RiskState {
  private readonly clients = new Map<string, Held>();
  private tokens = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** The month (YYYYMM) a client's contracts are live from: its trading day's, in its time zone. */
    private readonly liveMonth: (compId: string) => Promise<string>,
  ) {}

  /** The client's session is on this node: its book is loaded (once) and followed from now on. */
  hold(compId: string): Promise<RiskBook> {
    const held = this.clients.get(compId);
    if (held) return held.ready;
    const book = new RiskBook();
    const h: Held = {
      book,
      ready: undefined as unknown as Promise<RiskBook>,
      loaded: false,
      highWater: Number.MAX_SAFE_INTEGER,
      changedWhileLoading: new Set(),
      month: '',
    };
    h.ready = this.load(compId, h);
    this.clients.set(compId, h);
    h.ready.catch((err: unknown) => {
      this.log.error({ err, compId }, 'could not load the client risk book');
      if (this.clients.get(compId) === h) this.clients.delete(compId);
    });
    return h.ready;
  }

  private async load(compId: string, h: Held): Promise<RiskBook> {
    h.month = await this.liveMonth(compId);
    const rows = await loadClientRisk(this.db, compId, h.month);
    for (const f of rows.filled) h.book.addFilled(positionKey(f.symbol, f.maturity), f.filled);
    for (const r of rows.working) h.book.set(String(r.id), shareOf(r), r.updated_at.getTime());
    h.highWater = rows.highWater;
    h.loaded = true;
    if (h.changedWhileLoading.size) {
      const again = [...h.changedWhileLoading];
      h.changedWhileLoading.clear();
      for (const r of await getRiskOrders(this.db, again)) this.apply(h, r);
    }
    return h.book;
  }

  /** The client's session left this node: its book is dropped (the next holder loads its own). */
  release(compId: string): void {
    this.clients.delete(compId);
  }

  /** Whether this node follows the client's risk (its session is here). */
  holds(compId: string): boolean {
    return this.clients.has(compId);
  }

  holdsAny(): boolean {
    return this.clients.size > 0;
  }

  /** The client's book if it is loaded (no waiting); contracts whose month ended are dropped first. */
  loaded(compId: string, month?: string): RiskBook | undefined {
    const h = this.clients.get(compId);
    if (!h?.loaded) return undefined;
    if (month && month > h.month) {
      h.book.dropExpired(month);
      h.month = month;
    }
    return h.book;
  }

  /** A new order decided at intake: its share counts from now on, before its commit. Returns its token. */
  reserve(compId: string, o: NewOrderLegs): string | undefined {
    const book = this.loaded(compId);
    if (!book) return undefined;
    const token = `r${++this.tokens}`;
    book.set(token, newOrderShare(o));
    return token;
  }

  /** The reserved order was stored under this id. */
  stored(compId: string, token: string | undefined, orderId: number): void {
    if (token) this.clients.get(compId)?.book.rename(token, String(orderId));
  }

  /** The reserved order was not stored (a duplicate, a failed commit): its share goes. */
  unreserve(compId: string, token: string | undefined): void {
    if (token) this.clients.get(compId)?.book.remove(token);
  }

  /** An order as stored after a change (read by the publisher): its share replaces the old one. */
  orderChanged(row: RiskOrderRow & { sendercompid: string }): void {
    const h = this.clients.get(row.sendercompid);
    if (!h) return;
    if (!h.loaded) {
      h.changedWhileLoading.add(row.id);
      return;
    }
    this.apply(h, row);
  }

  /** Orders another node changed, by id: those of clients held here are read (one statement) and applied. */
  async ordersChangedElsewhere(ids: readonly number[]): Promise<void> {
    if (!ids.length || !this.clients.size) return;
    for (const r of await getRiskOrders(this.db, ids)) this.orderChanged(r);
  }

  private apply(h: Held, r: RiskOrderRow): void {
    const ref = String(r.id);
    // An order the book does not know, at or below the load's high water, was closed when the book was
    // read: its fills are in the loaded position already.
    if (!h.book.has(ref) && r.id <= h.highWater) return;
    h.book.set(ref, shareOf(r), r.updated_at.getTime());
  }
}
