import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ServiceStatusEntry } from '@fixdesk/protocol';
import type { SessionEventKind } from './session-stats';

/** Message types worth a label of their own; anything else a client sends is counted as "other". */
const KNOWN_MSG_TYPES = new Set(['0', '1', '2', '3', '4', '5', 'A', 'D', 'AB', 'F', 'G', 'H', '8', '9', 'j']);

export interface MetricsSources {
  /** The latest service list (the monitor's), for the per-session and per-service gauges. */
  services(): Promise<readonly ServiceStatusEntry[]>;
  browsersConnected(): number;
  pool(): { total: number; idle: number; waiting: number; max: number } | undefined;
}

/**
 * The server's Prometheus metrics (GET /metrics, text format): counters fed as things happen (FIX
 * session events, orders, HTTP requests) and gauges read at scrape time from the service monitor,
 * the WebSocket hub and the database pool. One registry per server (tests run several in a process).
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private sources: MetricsSources | undefined;

  /**
   * FIX messages counted since the last scrape, by client, direction and MsgType (one Map entry each).
   * A message is counted per message of every session (two per order at full speed): a Map lookup here,
   * the counter's label hashing once per label set at scrape time.
   */
  private readonly messageCounts = new Map<
    string,
    { labels: { client: string; direction: 'in' | 'out'; msg_type: string }; n: number; orders: boolean }
  >();
  private readonly fixMessages = new Counter({
    name: 'fixdesk_fix_messages_total',
    help: 'FIX messages by client session, direction and MsgType',
    labelNames: ['client', 'direction', 'msg_type'],
    registers: [this.registry],
    collect: () => this.flushMessageCounts(),
  });
  private readonly testRequests = new Counter({
    name: 'fixdesk_fix_test_requests_sent_total',
    help: 'TestRequests sent to a silent client',
    labelNames: ['client'],
    registers: [this.registry],
  });
  private readonly resendRequests = new Counter({
    name: 'fixdesk_fix_resend_requests_total',
    help: 'ResendRequests: in (the client asked us) or out (we asked the client)',
    labelNames: ['client', 'direction'],
    registers: [this.registry],
  });
  private readonly resendGap = new Counter({
    name: 'fixdesk_fix_resend_gap_messages_total',
    help: 'Messages asked for by ResendRequests',
    labelNames: ['client', 'direction'],
    registers: [this.registry],
  });
  private readonly sessionRejects = new Counter({
    name: 'fixdesk_fix_session_rejects_total',
    help: 'Session-level Rejects (35=3) by SessionRejectReason (373)',
    labelNames: ['client', 'direction', 'reason'],
    registers: [this.registry],
  });
  private readonly businessRejects = new Counter({
    name: 'fixdesk_fix_business_rejects_total',
    help: 'BusinessMessageRejects (35=j) by BusinessRejectReason (380)',
    labelNames: ['client', 'direction', 'reason'],
    registers: [this.registry],
  });
  private readonly refusedLogons = new Counter({
    name: 'fixdesk_fix_refused_logons_total',
    help: 'Logons refused, by cause (client empty for an unknown session)',
    labelNames: ['client', 'cause'],
    registers: [this.registry],
  });
  private readonly ordersReceived = new Counter({
    name: 'fixdesk_orders_received_total',
    help: 'New orders received from clients (D and AB)',
    labelNames: ['client'],
    registers: [this.registry],
    collect: () => this.flushMessageCounts(),
  });
  private readonly ordersAccepted = new Counter({
    name: 'fixdesk_orders_accepted_total',
    help: 'Orders accepted by a broker',
    registers: [this.registry],
  });
  private readonly ordersFilled = new Counter({
    name: 'fixdesk_orders_filled_total',
    help: 'Orders completely filled',
    registers: [this.registry],
  });
  private readonly intake = new Histogram({
    name: 'fixdesk_order_intake_seconds',
    help: 'From a new order arriving on its FIX session to its Pending New committed and answered',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  private readonly http = new Histogram({
    name: 'fixdesk_http_request_duration_seconds',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'fixdesk_' });
    const registers = [this.registry];
    // prom-client calls collect() with the gauge as `this`: the sources are reached through this closure.
    const source = () => this.sources;
    new Gauge({
      name: 'fixdesk_websocket_clients',
      help: 'Browser WebSocket connections',
      registers,
      collect() {
        const s = source();
        if (s) this.set(s.browsersConnected());
      },
    });
    new Gauge({
      name: 'fixdesk_db_pool_connections',
      help: 'Database connections by state (total, idle, waiting callers, max)',
      labelNames: ['state'],
      registers,
      collect() {
        const p = source()?.pool();
        if (!p) return;
        this.set({ state: 'total' }, p.total);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'waiting' }, p.waiting);
        this.set({ state: 'max' }, p.max);
      },
    });
    // The per-service and per-session gauges come from one read of the monitor's list per scrape, which
    // each of them awaits in its collect(): prom-client reads a gauge's values once its own collect()
    // settles, so a gauge that did not wait would show the previous scrape's values.
    let reading: Promise<void> | undefined;
    const readList = (): Promise<void> =>
      (reading ??= setFromList().finally(() => {
        reading = undefined;
      }));
    const gauges = {
      up: new Gauge({
        name: 'fixdesk_service_healthy',
        help: '1 when the service is healthy',
        labelNames: ['service', 'type', 'critical'],
        registers,
        collect: readList,
      }),
      status: new Gauge({
        name: 'fixdesk_service_status',
        help: '1 for the status the service is in',
        labelNames: ['service', 'status'],
        registers,
        collect: readList,
      }),
      stale: new Gauge({
        name: 'fixdesk_service_heartbeat_age_seconds',
        help: 'Seconds since the service was last seen working',
        labelNames: ['service'],
        registers,
        collect: readList,
      }),
      loggedOn: new Gauge({
        name: 'fixdesk_fix_session_logged_on',
        help: '1 while the client is logged on',
        labelNames: ['client'],
        registers,
        collect: readList,
      }),
      expected: new Gauge({
        name: 'fixdesk_fix_session_in_schedule',
        help: '1 inside the client connector trading days and hours',
        labelNames: ['client'],
        registers,
        collect: readList,
      }),
      alert: new Gauge({
        name: 'fixdesk_fix_session_missing',
        help: '1 when the client is expected in session and not logged on 5 minutes after its start',
        labelNames: ['client'],
        registers,
        collect: readList,
      }),
      silence: new Gauge({
        name: 'fixdesk_fix_session_seconds_since_inbound',
        help: 'Seconds since the last message from the logged-on client',
        labelNames: ['client'],
        registers,
        collect: readList,
      }),
      heartBtInt: new Gauge({
        name: 'fixdesk_fix_session_heartbeat_interval_seconds',
        help: 'HeartBtInt in force',
        labelNames: ['client'],
        registers,
        collect: readList,
      }),
      unanswered: new Gauge({
        name: 'fixdesk_fix_session_test_requests_unanswered',
        help: 'TestRequests the client has not answered',
        labelNames: ['client'],
        registers,
        collect: readList,
      }),
      queue: new Gauge({
        name: 'fixdesk_fix_session_queue_depth',
        help: 'Messages waiting to go out to the client',
        labelNames: ['client'],
        registers,
        collect: readList,
      }),
      dropCopyDepth: new Gauge({
        name: 'fixdesk_drop_copy_queue_depth',
        help: 'Copies committed for the drop copy session and not sent yet',
        labelNames: ['session'],
        registers,
        collect: readList,
      }),
      dropCopyLag: new Gauge({
        name: 'fixdesk_drop_copy_lag_seconds',
        help: 'Age of the oldest copy not sent yet to the drop copy session (0 when none waits)',
        labelNames: ['session'],
        registers,
        collect: readList,
      }),
      tls: new Gauge({
        name: 'fixdesk_fix_session_tls_certificate_days_left',
        help: 'Days until the client connector TLS certificate expires',
        labelNames: ['client'],
        registers,
        collect: readList,
      }),
      accept: new Gauge({
        name: 'fixdesk_fix_session_order_to_accept_seconds',
        help: 'Order arrival to broker accept, orders of today (UTC)',
        labelNames: ['client', 'quantile'],
        registers,
        collect: readList,
      }),
      seq: new Gauge({
        name: 'fixdesk_fix_session_sequence_number',
        help: 'Last sequence number sent (tx) and received (rx)',
        labelNames: ['client', 'direction'],
        registers,
        collect: readList,
      }),
    };
    new Gauge({
      name: 'fixdesk_service_list_age_seconds',
      help: 'Age of the service list the gauges were read from',
      registers,
      async collect() {
        await readList();
        this.set(0);
      },
    });
    async function setFromList(): Promise<void> {
      const s = source();
      if (!s) return;
      const services = await s.services();
      for (const g of Object.values(gauges)) g.reset();
      for (const s of services) {
        gauges.up.set({ service: s.name, type: s.type, critical: String(s.critical) }, s.status === 'healthy' ? 1 : 0);
        gauges.status.set({ service: s.name, status: s.status }, 1);
        if (s.lastHeartbeat) gauges.stale.set({ service: s.name }, s.staleDuration / 1000);
        const f = s.session;
        if (!f) continue;
        const client = String(s.metadata.targetCompID ?? s.name);
        gauges.loggedOn.set({ client }, f.loggedOn ? 1 : 0);
        gauges.expected.set({ client }, f.inSchedule ? 1 : 0);
        gauges.alert.set({ client }, f.expectation === 'missing' ? 1 : 0);
        if (f.secondsSinceInbound !== null) gauges.silence.set({ client }, f.secondsSinceInbound);
        gauges.heartBtInt.set({ client }, f.heartBtIntSec);
        gauges.unanswered.set({ client }, f.testRequests.unanswered);
        gauges.queue.set({ client }, f.queueDepth);
        if (f.dropCopy) {
          gauges.dropCopyDepth.set({ session: client }, f.dropCopy.depth);
          gauges.dropCopyLag.set({ session: client }, f.dropCopy.lagSeconds ?? 0);
        }
        if (f.tlsDaysLeft !== null) gauges.tls.set({ client }, f.tlsDaysLeft);
        if (f.orderToAccept) {
          gauges.accept.set({ client, quantile: '0.5' }, f.orderToAccept.p50Ms / 1000);
          gauges.accept.set({ client, quantile: '1' }, f.orderToAccept.worstMs / 1000);
        }
        if (typeof s.metadata.txSeqNum === 'number') gauges.seq.set({ client, direction: 'tx' }, s.metadata.txSeqNum);
        if (typeof s.metadata.rxSeqNum === 'number') gauges.seq.set({ client, direction: 'rx' }, s.metadata.rxSeqNum);
      }
    }
  }

  /** The gauges' sources, known once the server's parts exist. */
  readFrom(sources: MetricsSources): void {
    this.sources = sources;
  }

  /** A FIX session event counted by SessionStats. */
  sessionEvent(kind: SessionEventKind, compId: string, detail?: string, amount?: number): void {
    const client = compId;
    switch (kind) {
      case 'message_in':
      case 'message_out': {
        const direction = kind === 'message_in' ? 'in' : 'out';
        const msgType = detail && KNOWN_MSG_TYPES.has(detail) ? detail : 'other';
        const key = `${client}\u0001${direction}\u0001${msgType}`;
        const counted = this.messageCounts.get(key);
        if (counted) counted.n++;
        else
          this.messageCounts.set(key, {
            labels: { client, direction, msg_type: msgType },
            n: 1,
            orders: direction === 'in' && (msgType === 'D' || msgType === 'AB'),
          });
        return;
      }
      case 'test_request_out':
        this.testRequests.inc({ client });
        return;
      case 'resend_in':
      case 'resend_out': {
        const direction = kind === 'resend_in' ? 'in' : 'out';
        this.resendRequests.inc({ client, direction });
        this.resendGap.inc({ client, direction }, amount ?? 0);
        return;
      }
      case 'session_reject_in':
      case 'session_reject_out':
        this.sessionRejects.inc({ client, direction: kind.endsWith('_in') ? 'in' : 'out', reason: detail ?? 'none' });
        return;
      case 'business_reject_in':
      case 'business_reject_out':
        this.businessRejects.inc({ client, direction: kind.endsWith('_in') ? 'in' : 'out', reason: detail ?? 'none' });
        return;
      case 'refused_logon':
        this.refusedLogons.inc({ client, cause: detail ?? 'other' });
        return;
    }
  }

  /** The messages counted since the last scrape into their counters (and the new orders among them). */
  private flushMessageCounts(): void {
    for (const c of this.messageCounts.values()) {
      if (c.n === 0) continue;
      this.fixMessages.inc(c.labels, c.n);
      if (c.orders) this.ordersReceived.inc({ client: c.labels.client }, c.n);
      c.n = 0;
    }
  }

  orderIntake(seconds: number): void {
    this.intake.observe(seconds);
  }

  /** A report of an order change on the desk: an accept (ExecType 0) or the fill that completed it (OrdStatus 2). */
  orderReport(execType: string, ordStatus: string): void {
    if (execType === '0') this.ordersAccepted.inc();
    else if (ordStatus === '2' && (execType === 'F' || execType === '2')) this.ordersFilled.inc();
  }

  httpRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.http.observe({ method, route, status_code: String(statusCode) }, seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
