import { countConnectorOrders, getConnector, listSessionMessages, storedSequenceNumbers, type ConnectorRow, type Db } from '@fixdesk/db';
import { MsgType, nextClientOrderId, SimulatorText } from '@fixdesk/domain';
import {
  createSessionCodec,
  FixParser,
  Initiator,
  outgoing,
  type Application,
  type FixMessage,
  type LogFactory,
  type MessageStoreFactory,
  type SessionID,
} from '@fixdesk/fix';
import type {
  CancelOrderRequest,
  ClientBlotterResponse,
  ReplaceOrderRequest,
  SendOrderResponse,
  TestClientHealth,
  TestClientStatus,
  WsTestClientMessage,
} from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { counterpartyFor } from '../fix/logon-checks';
import { HttpError } from '../http/errors';
import { ClientBlotter } from './blotter';
import { checkOutboundMessage, checkOutboundParts, type CheckedMessage } from './message-check';
import { loadClientProfile } from '../orders/client-profile';
import { shapeClientRequest } from '../orders/fix-messages';
import { buildCancelRequest, buildReplaceRequest, nextRequestClOrdId } from './requests';

/** Message types the blotter is built from when the service starts. */
const BLOTTER_MSG_TYPES = [
  MsgType.NewOrderSingle,
  MsgType.NewOrderMultileg,
  MsgType.OrderCancelRequest,
  MsgType.OrderCancelReplaceRequest,
  MsgType.MultilegOrderCancelReplace,
  MsgType.ExecutionReport,
  MsgType.OrderCancelReject,
  MsgType.Reject,
  /* BusinessMessageReject */ 'j',
];
/** Most messages read back per client at start; older orders drop off the simulated client's blotter. */
const HISTORY_LIMIT = 5000;
/** Engine log lines worth showing as the client's last event (failures, refusals, logouts, retries). */
const NOTEWORTHY = /fail|refus|reject|logout|logged out|disconnect|error|timeout|timed out|reconnecting|ECONN|outside/i;
/** How long /connect waits for the Logon answer before reporting the client as still connecting. */
const CONNECT_WAIT_MS = 5000;

export interface TestClientDeps {
  db: Db;
  storeFactory: MessageStoreFactory;
  /** Where our acceptor listens. */
  acceptor: () => { host: string; port: number };
  publish: (message: WsTestClientMessage) => void;
  log: FastifyBaseLogger;
}

export interface PortState {
  listeningPort: number | null;
  portProblem: string | null;
}

const notLoggedOn = () => new HttpError(409, SimulatorText.clientNotRunning);

/**
 * One simulated client: a FIX initiator that logs on to our own acceptor as a client connector, the
 * orders it sent and the reports it received. Its sequence numbers live in the same database as the
 * acceptor's, under the mirrored session key (sender and target swapped).
 */
export class TestClient {
  readonly blotter = new ClientBlotter();
  readonly port: PortState = { listeningPort: null, portProblem: null };
  private initiator: Initiator | undefined;
  private starting: Promise<void> | undefined;
  private loggedOn = false;
  private lastEvent: { text: string; at: Date } | null = null;
  private logonWaiters: Array<() => void> = [];

  constructor(
    private connector: ConnectorRow,
    private readonly deps: TestClientDeps,
  ) {}

  get compId(): string {
    return this.connector.comp_id;
  }

  get row(): ConnectorRow {
    return this.connector;
  }

  get running(): boolean {
    return this.initiator !== undefined;
  }

  get fixConnected(): boolean {
    return this.loggedOn;
  }

  get sessionID(): SessionID {
    return { beginString: 'FIX.4.4', senderCompID: this.connector.comp_id, targetCompID: this.connector.target_comp_id };
  }

  /** New connector settings; credentials, heartbeat and schedule apply from the next logon. */
  update(row: ConnectorRow): void {
    this.connector = row;
  }

  /** Reads the session's past orders and reports back into the blotter. */
  async loadHistory(): Promise<void> {
    const id = this.sessionID;
    const rows = await listSessionMessages(this.deps.db, id, BLOTTER_MSG_TYPES, HISTORY_LIMIT);
    const parser = new FixParser(undefined, { validate: false });
    for (const row of rows.reverse()) {
      const m = parser.parse(Buffer.from(row.raw_fix, 'latin1'));
      if (m.garbled) continue;
      const at = new Date(row.created_at);
      if (row.direction === 'TX') this.blotter.applySent(m, row.msg_seq_num, at);
      else this.blotter.applyReceived(m, row.msg_seq_num, at);
    }
  }

  async status(): Promise<TestClientStatus> {
    const c = this.connector;
    const s = this.initiator?.status();
    // The order book may not have the order just sent yet; the blotter has it at once.
    const counters = this.blotter.counters();
    const ordersFromSender = Math.max(await countConnectorOrders(this.deps.db, c.id), counters.sent);
    let nextClOrdId = nextClientOrderId(c.execution_id_prefix, ordersFromSender);
    for (let n = ordersFromSender + 1; this.blotter.hasClOrdId(nextClOrdId); n++) nextClOrdId = nextClientOrderId(c.execution_id_prefix, n);
    const stored = s ? undefined : await this.storedNumbers();
    return {
      compId: c.comp_id,
      targetCompId: c.target_comp_id,
      clientName: c.client_name,
      running: this.running,
      state: !this.initiator ? 'stopped' : this.loggedOn ? 'logged_on' : 'connecting',
      fixConnected: this.loggedOn,
      testPort: c.test_port,
      listeningPort: this.port.listeningPort,
      portProblem: this.port.portProblem,
      nextSenderMsgSeqNum: s?.nextSenderMsgSeqNum ?? stored!.nextSender,
      nextTargetMsgSeqNum: s?.nextTargetMsgSeqNum ?? stored!.nextTarget,
      ordersFromSender,
      nextClOrdId,
      executionIdPrefix: c.execution_id_prefix,
      counters,
      lastEvent: this.lastEvent?.text ?? null,
      lastEventAt: this.lastEvent?.at.toISOString() ?? null,
    };
  }

  health(): TestClientHealth {
    return { status: 'ok', compId: this.compId, fixConnected: this.loggedOn, running: this.running };
  }

  blotterSnapshot(): ClientBlotterResponse {
    return { success: true, compId: this.compId, orders: this.blotter.listOrders(), executions: this.blotter.listExecutions() };
  }

  private storedNumbers(): Promise<{ nextSender: number; nextTarget: number }> {
    return storedSequenceNumbers(this.deps.db, this.sessionID);
  }

  private event(text: string): void {
    this.lastEvent = { text, at: new Date() };
  }

  private publishStatus(): void {
    void this.status()
      .then((data) => this.deps.publish({ type: 'test_client_status', comp_id: this.compId, data }))
      .catch((err) => this.deps.log.warn({ err, compId: this.compId }, 'test client status not published'));
  }

  /**
   * Starts the initiator (it keeps reconnecting until stopped) and waits up to `waitMs` for the logon.
   * Resolves with whether the client is logged on.
   */
  async connect(waitMs = CONNECT_WAIT_MS): Promise<boolean> {
    if (!this.connector.is_active) throw new HttpError(409, `Client connector ${this.compId} is inactive`);
    if (this.loggedOn) return true;
    if (!this.initiator) {
      this.starting ??= this.startInitiator().finally(() => (this.starting = undefined));
      await this.starting;
    }
    return this.waitForLogon(waitMs);
  }

  private waitForLogon(waitMs: number): Promise<boolean> {
    if (this.loggedOn) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(this.loggedOn);
      };
      const timer = setTimeout(() => {
        this.logonWaiters = this.logonWaiters.filter((w) => w !== done);
        resolve(this.loggedOn);
      }, waitMs);
      this.logonWaiters.push(done);
    });
  }

  private async startInitiator(): Promise<void> {
    // The connector as stored now, not as the last change event left it: the service follows a change
    // after the change's answer (a read of its own), and the acceptor checks a Logon against the stored
    // row. Started from the event's copy, a client connected right after its credentials were set
    // could log on without them, be refused, and retry with the same Logon (seen once in CI).
    const c = (await getConnector(this.deps.db, this.compId)) ?? this.connector;
    this.connector = c;
    const counterparty = counterpartyFor(c);
    const { host, port } = this.deps.acceptor();
    if (!port) throw new HttpError(503, 'The FIX acceptor is not running');
    const log = this.deps.log.child({ testClient: c.comp_id });
    const logFactory: LogFactory = {
      create: () => ({
        onIncoming: () => {},
        onOutgoing: () => {},
        onEvent: (text) => {
          // State changes are the engine's business; what the user needs is why the session is not up.
          if (NOTEWORTHY.test(text)) this.event(text);
          log.debug(text);
        },
      }),
    };
    const app: Application = {
      onLogon: () => {
        this.loggedOn = true;
        this.event(`Logged on to ${c.target_comp_id}`);
        log.info('test client logged on');
        const waiters = this.logonWaiters;
        this.logonWaiters = [];
        for (const w of waiters) w();
        this.publishStatus();
      },
      onLogout: (_id, reason) => {
        this.loggedOn = false;
        this.event(reason);
        log.info({ reason }, 'test client logged out');
        this.publishStatus();
      },
      fromAdmin: (m) => {
        if (m.msgType === MsgType.Reject) this.received(m);
      },
      fromApp: (m) => this.received(m),
    };
    this.event(`Connecting to ${host}:${port}`);
    this.initiator = await Initiator.start({
      host,
      port,
      sessionID: this.sessionID,
      settings: {
        heartBtIntSec: c.heartbeatint,
        resetOnLogon: c.resetseqnumflag || c.resetseqnums,
        resetFrequency: c.reset_frequency,
        timeZone: c.timezone,
        // The same window as the acceptor's, so both sides agree on when the numbers reset.
        schedule: counterparty.schedule,
        username: c.fix_username || undefined,
        password: c.fix_password || undefined,
      },
      app,
      storeFactory: this.deps.storeFactory,
      codec: createSessionCodec(),
      logFactory,
      reconnect: { initialDelayMs: 1000, maxDelayMs: 15_000, factor: 2 },
    });
    this.publishStatus();
  }

  /** Logs out and stops reconnecting. */
  async disconnect(): Promise<void> {
    await this.starting?.catch(() => {});
    const initiator = this.initiator;
    if (!initiator) return;
    this.initiator = undefined;
    await initiator.stop();
    this.loggedOn = false;
    this.event('Stopped');
    this.publishStatus();
  }

  private received(m: FixMessage): void {
    const change = this.blotter.applyReceived(m, m.msgSeqNum ?? 0, new Date());
    if (!change) return;
    if (change.execution)
      this.deps.publish({ type: 'test_client_execution', comp_id: this.compId, execution: change.execution, order: change.order });
    else this.deps.publish({ type: 'test_client_order', comp_id: this.compId, order: change.order });
    // The counters moved.
    this.publishStatus();
  }

  private parties() {
    return { senderCompId: this.connector.comp_id, targetCompId: this.connector.target_comp_id };
  }

  /** Checks a raw message, re-stamps its session header and sends it. */
  async sendRaw(fixMessage: string): Promise<SendOrderResponse> {
    if (!this.loggedOn || !this.initiator) throw notLoggedOn();
    return this.sendChecked(checkOutboundMessage(fixMessage, this.parties()));
  }

  async cancel(req: CancelOrderRequest): Promise<SendOrderResponse> {
    if (!this.loggedOn || !this.initiator) throw notLoggedOn();
    const order = this.orderFor(req.origClOrdId);
    const clOrdId = this.requestClOrdId(order.clordid, req.clOrdId);
    const now = new Date();
    return this.sendChecked(
      checkOutboundParts('F', [], await this.shaped('F', buildCancelRequest(order, clOrdId, now, req.text), now), this.parties()),
    );
  }

  async replace(req: ReplaceOrderRequest): Promise<SendOrderResponse> {
    if (!this.loggedOn || !this.initiator) throw notLoggedOn();
    const order = this.orderFor(req.origClOrdId);
    const clOrdId = this.requestClOrdId(order.clordid, req.clOrdId);
    const now = new Date();
    return this.sendChecked(
      checkOutboundParts('G', [], await this.shaped('G', buildReplaceRequest(order, clOrdId, req, now), now), this.parties()),
    );
  }

  /**
   * The client's FIX defaults for the request's message type fill what the request does not carry, as
   * the FIX Client screen applies them to the orders it builds. Read afresh: requests are rare and an
   * edit on the defaults screen applies to the next one.
   */
  private async shaped(msgType: 'F' | 'G', body: Array<[number, string]>, now: Date): Promise<Array<[number, string]>> {
    const profile = await loadClientProfile(this.deps.db, this.connector.id);
    const built = shapeClientRequest(msgType, body, profile, now);
    if (built.dropped.length)
      this.deps.log.warn(
        { compId: this.compId, msgType, tags: built.dropped },
        'client defaults not defined for this message type left out',
      );
    return built.body;
  }

  private orderFor(clOrdId: string) {
    const order = this.blotter.order(clOrdId);
    if (!order) throw new HttpError(404, `No order with ClOrdID ${clOrdId} was sent by ${this.compId}`, 'origClOrdId');
    return order;
  }

  private requestClOrdId(current: string, given: string | undefined): string {
    if (given === undefined) return nextRequestClOrdId(current, (id) => this.blotter.hasClOrdId(id));
    if (this.blotter.hasClOrdId(given)) throw new HttpError(409, `ClOrdID ${given} was already used by ${this.compId}`, 'clOrdId');
    return given;
  }

  private async sendChecked(checked: CheckedMessage): Promise<SendOrderResponse> {
    const initiator = this.initiator;
    if (!initiator || !this.loggedOn) throw notLoggedOn();
    const { msgType, clOrdId } = checked;
    const isNewOrder = msgType === MsgType.NewOrderSingle || msgType === MsgType.NewOrderMultileg;
    if (isNewOrder && clOrdId && this.blotter.hasClOrdId(clOrdId)) {
      throw new HttpError(409, `ClOrdID ${clOrdId} was already used by ${this.compId}; each order needs a new one`, '11');
    }
    // Into the blotter before the bytes leave: the broker's first report can arrive before send() returns.
    const now = new Date();
    const recorded = this.blotter.applySent(checked.view, 0, now);
    let msgSeqNum: number;
    try {
      msgSeqNum = await initiator.send(outgoing(msgType, checked.body, checked.header));
    } catch (err) {
      if (recorded && clOrdId) this.blotter.forget(clOrdId);
      throw new HttpError(502, `The FIX session did not take the message: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (clOrdId) this.blotter.setSentSeq(clOrdId, msgSeqNum, msgType);
    const order = clOrdId ? this.blotter.order(clOrdId) : undefined;
    if (order) this.deps.publish({ type: 'test_client_order', comp_id: this.compId, order });
    if (isNewOrder) this.publishStatus();
    this.deps.log.info({ compId: this.compId, msgType, clOrdId, msgSeqNum }, 'test client sent a message');
    return {
      success: true,
      clOrdId,
      clOrderId: clOrdId,
      msgType,
      msgSeqNum,
      message: `${msgType} ${clOrdId ?? ''} sent as MsgSeqNum ${msgSeqNum}`.trim(),
    };
  }
}
