import { getConnector, getRiskOrders, insertOrderAction, setClientStop, workingOrderIds, type Db } from '@fixdesk/db';
import { DomainError, notFoundError, OrdStatus, RiskText } from '@fixdesk/domain';
import type { ClientStopResult, ClientTradingStop, SessionUser } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerEventBus } from '../events';
import type { WsHub } from '../ws/hub';
import { SYSTEM_USER } from './broker-actions';
import type { OrderService } from './order-service';

/** Logs a client's FIX session out when it is on this node; false when it is not logged on here. */
export type SessionLogout = (compId: string, reason: string) => Promise<boolean>;

/**
 * The kill switch per client (docs/adr/0013): a broker stops a client whose algorithm runs
 * wild. The stop is kept on the connector (every node refuses the client's new orders once its
 * connector cache is renewed by `connector-changed`, and after a restart), recorded as an order action
 * with who and why, and every working order of the client is canceled through the broker's cancel
 * (Canceled reports sent now, or queued for the client's next logon). The node holding the client's
 * session sweeps again once it hears of the stop and its intake is idle: an order decided there just
 * before it heard is canceled too. Resuming lifts the refusal; the cancels stay.
 */
export class ClientKillSwitch {
  /** The stop each client had when this node last looked (to tell the browsers of a change once). */
  private readonly known = new Map<string, string | null>();
  /** Clients whose stop this node is carrying out (its own sweep, after its intake is idle). */
  private readonly stopping = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly orders: OrderService,
    private readonly events: ServerEventBus,
    private readonly hub: WsHub,
    private readonly logout: SessionLogout,
    private readonly log: FastifyBaseLogger,
  ) {}

  async stop(compId: string, user: SessionUser, reason: string, logOut = false): Promise<ClientStopResult> {
    const stop = await this.db.transaction(async (tx) => {
      const row = await setClientStop(tx, compId, { by: user.username, reason });
      if (!row) throw notFoundError(`Client connector ${compId} not found`);
      await insertOrderAction(tx, {
        orderId: null,
        brokerorderid: null,
        clordid: null,
        sendercompid: row.comp_id,
        symbol: null,
        side: null,
        orderqty: null,
        price: null,
        actionType: 'CLIENT_STOP',
        userId: user.username,
        userRef: user.user_id > 0 ? user.user_id : null,
        notes: reason,
        actionData: { logout: logOut, wasStopped: row.was_stopped },
        fillQty: null,
        fillPrice: null,
        legIndex: null,
      });
      // The orders working when the stop takes effect, read before any other node can hear of it: the
      // node holding the session may sweep them first, and they still count as canceled by this stop.
      return { ...row, working: await workingOrderIds(tx, row.comp_id) };
    });
    this.log.warn({ compId, by: user.username, reason }, 'client stopped by the kill switch');
    this.stopping.add(stop.comp_id);
    let swept: Awaited<ReturnType<ClientKillSwitch['cancelWorking']>>;
    try {
      // Every node's intake refuses the client from here on (and the node holding its session sweeps too).
      this.events.emit('connector-changed', stop.comp_id);
      // Orders this node decided before the refusal are committed first, then canceled with the rest.
      if (this.orders.holdsClient(stop.comp_id)) await this.orders.intakeIdle();
      swept = await this.cancelWorking(stop.comp_id, user, reason, stop.working);
    } finally {
      this.stopping.delete(stop.comp_id);
    }
    const loggedOut = logOut ? await this.logout(stop.comp_id, RiskText.clientStopped(reason)).catch(() => false) : false;
    return {
      comp_id: stop.comp_id,
      trading_stop: await this.stopOf(stop.comp_id),
      canceled_orders: swept.canceled,
      not_canceled: swept.failed,
      logged_out: loggedOut,
    };
  }

  async resume(compId: string, user: SessionUser, reason: string): Promise<ClientStopResult> {
    const row = await this.db.transaction(async (tx) => {
      const r = await setClientStop(tx, compId, null);
      if (!r) throw notFoundError(`Client connector ${compId} not found`);
      await insertOrderAction(tx, {
        orderId: null,
        brokerorderid: null,
        clordid: null,
        sendercompid: r.comp_id,
        symbol: null,
        side: null,
        orderqty: null,
        price: null,
        actionType: 'CLIENT_RESUME',
        userId: user.username,
        userRef: user.user_id > 0 ? user.user_id : null,
        notes: reason,
        actionData: { wasStopped: r.was_stopped },
        fillQty: null,
        fillPrice: null,
        legIndex: null,
      });
      return r;
    });
    this.log.warn({ compId, by: user.username, reason }, 'client resumed');
    this.events.emit('connector-changed', row.comp_id);
    return { comp_id: row.comp_id, trading_stop: null, canceled_orders: 0, not_canceled: [], logged_out: false };
  }

  /**
   * A connector changed (here or on another node): the browsers hear of a stop or a resume once, and
   * the node holding a stopped client's session cancels what its intake took before it heard.
   */
  async followConnectorChange(compId: string): Promise<void> {
    const stop = await this.stopOf(compId);
    const key = stop ? `${stop.stopped_at}|${stop.reason}` : null;
    const before = this.known.get(compId);
    this.known.set(compId, key);
    if (before === key || (before === undefined && key === null)) return;
    this.hub.broadcast({ type: 'client_trading_status', comp_id: compId, trading_stop: stop });
    if (stop && this.orders.holdsClient(compId) && !this.stopping.has(compId)) {
      await this.orders.intakeIdle();
      const swept = await this.cancelWorking(compId, { ...SYSTEM_USER, username: stop.stopped_by || SYSTEM_USER.username }, stop.reason);
      if (swept.canceled) this.log.warn({ compId, canceled: swept.canceled }, 'kill switch: orders taken just before the stop canceled');
    }
  }

  private async stopOf(compId: string): Promise<ClientTradingStop | null> {
    const c = await getConnector(this.db, compId);
    return c?.trading_stopped_at
      ? { stopped_at: c.trading_stopped_at.toISOString(), stopped_by: c.trading_stopped_by ?? '', reason: c.trading_stop_reason ?? '' }
      : null;
  }

  /**
   * Cancels each working order of the client, and each of `workingAtStop` (an order that changed
   * meanwhile is reported, not an error). Counted as canceled: the orders this sweep canceled, and
   * those closed meanwhile that are Canceled now (another node's sweep of the same stop got there first).
   */
  private async cancelWorking(
    compId: string,
    user: SessionUser,
    reason: string,
    workingAtStop: readonly number[] = [],
  ): Promise<{ canceled: number; failed: { order_id: string; reason: string }[] }> {
    let canceled = 0;
    const failed: { order_id: string; reason: string }[] = [];
    const closedMeanwhile: number[] = [];
    const ids = [...new Set([...workingAtStop, ...(await workingOrderIds(this.db, compId))])].sort((a, b) => a - b);
    for (const id of ids) {
      try {
        await this.orders.brokerCancel(String(id), user, `Client stopped by the desk: ${reason}`, `Kill switch: ${reason}`);
        canceled++;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        // Closed meanwhile (filled, canceled by another node's sweep): nothing left to cancel.
        if (err.kind === 'conflict') closedMeanwhile.push(id);
        else failed.push({ order_id: String(id), reason: err.message });
      }
    }
    for (const o of await getRiskOrders(this.db, closedMeanwhile)) if (o.ordstatus === OrdStatus.Canceled) canceled++;
    return { canceled, failed };
  }
}
