import {
  findSecurity,
  getOrderConnector,
  listClientCapabilities,
  listConnectorIdentities,
  type ClientStop,
  type Db,
  type Queryable,
} from '@fixdesk/db';
import { contactKey, type ClientCapability, type DeskIdentities, type SecurityInfo } from '@fixdesk/domain';

/** What the order core needs of a client connector, for every order. */
export interface ConnectorInfo {
  id: number;
  compId: string;
  clientName: string | null;
  clientPhone: string | null;
  companyName: string | null;
  executionIdPrefix: string;
  isActive: boolean;
  tradingEnabled: boolean;
  timezone: string;
  maxOrdersPerSecond: number;
  /** The client's LEI, when the desk has it. */
  lei: string | null;
  /** Set while the desk's kill switch stops the client: every new order is refused. */
  stop: ClientStop | null;
}

/** The client's trading day in its connector's time zone: ClOrdIDs are unique per day. */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();
/** The last answer per time zone, by minute (a day starts on a minute in every zone). */
const lastDay = new Map<string, { minute: number; day: string }>();
export function tradingDay(now: Date, timeZone: string): string {
  const minute = Math.floor(now.getTime() / 60_000);
  const hit = lastDay.get(timeZone);
  if (hit && hit.minute === minute) return hit.day;
  const day = formatDay(now, timeZone);
  lastDay.set(timeZone, { minute, day });
  return day;
}

/** The month (YYYYMM) of the client's trading day: contracts of earlier months have expired. */
export function liveMonth(now: Date, timeZone: string): string {
  const day = tradingDay(now, timeZone);
  return day.slice(0, 4) + day.slice(5, 7);
}

function formatDay(now: Date, timeZone: string): string {
  let f = dayFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, f);
  }
  return f.format(now);
}

async function loadCapabilities(q: Queryable, connectorId: number): Promise<ClientCapability[]> {
  const rows = await listClientCapabilities(q, connectorId);
  return rows.map((r) => ({
    securitySymbol: r.symbol,
    exchange: r.exchange,
    isEnabled: r.is_enabled,
    canBuy: r.can_buy,
    canSell: r.can_sell,
    canShort: r.can_short,
    minOrderQty: r.min_order_qty,
    maxOrderQty: r.max_order_qty,
    maxPositionLong: r.max_position_long,
    maxPositionShort: r.max_position_short,
    marketIdentifier: r.market_identifier,
  }));
}

/** Who each LEI and contact (name or e-mail) on the desk's connectors belongs to. */
async function loadDeskIdentities(q: Queryable): Promise<DeskIdentities> {
  const leis = new Map<string, string>();
  const contacts = new Map<string, string>();
  for (const r of await listConnectorIdentities(q)) {
    if (r.client_lei?.trim()) leis.set(r.client_lei.trim().toUpperCase(), r.comp_id);
    for (const c of [r.client_contact, r.client_email]) if (c?.trim()) contacts.set(contactKey(c), r.comp_id);
  }
  return { leiOwner: (lei) => leis.get(lei), contactOwner: (key) => contacts.get(key) };
}

async function loadConnector(q: Queryable, compId: string): Promise<ConnectorInfo | undefined> {
  const r = await getOrderConnector(q, compId);
  return (
    r && {
      id: r.id,
      compId: r.comp_id,
      clientName: r.client_name,
      clientPhone: r.client_phone,
      companyName: r.company_name,
      executionIdPrefix: r.execution_id_prefix,
      isActive: r.is_active,
      tradingEnabled: r.trading_enabled,
      timezone: r.timezone,
      maxOrdersPerSecond: r.max_orders_per_second,
      lei: r.client_lei,
      stop: r.trading_stopped_at ? { at: r.trading_stopped_at, by: r.trading_stopped_by ?? '', reason: r.trading_stop_reason ?? '' } : null,
    }
  );
}

export async function securityIn(q: Queryable, symbol: string): Promise<SecurityInfo | null> {
  const row = await findSecurity(q, symbol);
  return row ? { symbol: row.symbol, isActive: row.is_active, priceTickSize: row.price_tick_size } : null;
}

/**
 * The reference data every order is checked against (connectors, securities, capabilities) and the
 * per-client order rate, cached until a reference change invalidates them. Each cache has a promise
 * (the load under way) and the loaded value, which the intake's no-wait path reads.
 */
export class OrderReferenceData {
  private readonly connectors = new Map<string, Promise<ConnectorInfo | undefined>>();
  /** Connectors already loaded; what a transaction may use without a query. */
  private readonly connectorRows = new Map<string, ConnectorInfo>();
  private readonly capabilities = new Map<number, Promise<ClientCapability[]>>();
  private readonly capabilitiesLoaded = new Map<number, ClientCapability[]>();
  /** Security master rows by upper-case symbol (null: known not to exist). */
  private readonly securities = new Map<string, Promise<SecurityInfo | null>>();
  private readonly securitiesLoaded = new Map<string, SecurityInfo | null>();
  private readonly rateWindows = new Map<string, { second: number; count: number }>();
  /** The desk's connectors' identities: one load for all, dropped when any connector changes. */
  private desk: Promise<DeskIdentities> | undefined;
  private deskLoaded: DeskIdentities | undefined;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** Reference data changed: drop the caches (one connector's, or all). */
  invalidate(compId?: string): void {
    this.desk = undefined;
    this.deskLoaded = undefined;
    if (compId) {
      this.connectors.delete(compId);
      this.connectorRows.delete(compId);
    } else {
      this.connectors.clear();
      this.connectorRows.clear();
    }
    this.capabilities.clear();
    this.securities.clear();
    this.capabilitiesLoaded.clear();
    this.securitiesLoaded.clear();
  }

  connector(compId: string): Promise<ConnectorInfo | undefined> {
    let p = this.connectors.get(compId);
    if (!p) {
      p = this.load(this.db, compId);
      p.catch(() => this.connectors.delete(compId));
      this.connectors.set(compId, p);
    }
    return p;
  }

  /** Who the desk's clients are (their LEIs and contacts), for the parties of an order. */
  deskIdentities(): Promise<DeskIdentities> {
    if (!this.desk) {
      const loading = loadDeskIdentities(this.db);
      this.desk = loading;
      loading.then(
        (d) => {
          if (this.desk === loading) this.deskLoaded = d;
        },
        () => {
          if (this.desk === loading) this.desk = undefined;
        },
      );
    }
    return this.desk;
  }

  /** The desk's identities if loaded already (no waiting). */
  loadedDeskIdentities(): DeskIdentities | undefined {
    return this.deskLoaded;
  }

  /** The connector if it is loaded already (no waiting). */
  loadedConnector(compId: string): ConnectorInfo | undefined {
    return this.connectorRows.get(compId);
  }

  /**
   * The connector inside a transaction. It never waits on a lookup that another caller started on
   * the pool: on PGlite (one connection) that lookup queues behind this very transaction (deadlock).
   */
  async connectorIn(tx: Queryable, compId: string): Promise<ConnectorInfo | undefined> {
    return this.connectorRows.get(compId) ?? (await this.load(tx, compId));
  }

  private async load(q: Queryable, compId: string): Promise<ConnectorInfo | undefined> {
    const info = await loadConnector(q, compId);
    if (info) this.connectorRows.set(compId, info);
    return info;
  }

  security(symbol: string): Promise<SecurityInfo | null> {
    const key = symbol.toUpperCase();
    let p = this.securities.get(key);
    if (!p) {
      const loading = securityIn(this.db, key);
      p = loading;
      loading.then(
        (info) => {
          if (this.securities.get(key) === loading) this.securitiesLoaded.set(key, info);
        },
        () => this.securities.delete(key),
      );
      this.securities.set(key, p);
    }
    return p;
  }

  /** The security if it is loaded: undefined when not known yet, null when known not to exist. */
  loadedSecurity(symbol: string): SecurityInfo | null | undefined {
    return this.securitiesLoaded.get(symbol.toUpperCase());
  }

  clientCapabilities(connectorId: number): Promise<ClientCapability[]> {
    let p = this.capabilities.get(connectorId);
    if (!p) {
      const loading = loadCapabilities(this.db, connectorId);
      p = loading;
      loading.then(
        (caps) => {
          if (this.capabilities.get(connectorId) === loading) this.capabilitiesLoaded.set(connectorId, caps);
        },
        () => this.capabilities.delete(connectorId),
      );
      this.capabilities.set(connectorId, p);
    }
    return p;
  }

  loadedCapabilities(connectorId: number): ClientCapability[] | undefined {
    return this.capabilitiesLoaded.get(connectorId);
  }

  /** Inside a transaction: read directly (see connectorIn). */
  capabilitiesIn(tx: Queryable, connectorId: number): Promise<ClientCapability[]> {
    return loadCapabilities(tx, connectorId);
  }

  /** True when the client is over its configured orders per second (checked per node; a session lives on one node). */
  overRate(c: ConnectorInfo): boolean {
    const second = Math.floor(this.now().getTime() / 1000);
    const w = this.rateWindows.get(c.compId);
    if (!w || w.second !== second) {
      this.rateWindows.set(c.compId, { second, count: 1 });
      return false;
    }
    w.count++;
    return w.count > c.maxOrdersPerSecond;
  }
}
