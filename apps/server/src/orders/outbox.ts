import {
  markCancelRejectSent,
  markExecReportsSent,
  unsentCancelRejects,
  unsentExecReportsWithOrders,
  type Db,
  type ExecReportRow,
  type OrderLegRow,
  type OrderRow,
} from '@fixdesk/db';
import type { FastifyBaseLogger } from 'fastify';
import { loadClientProfile, type ClientProfile } from './client-profile';
import { buildCancelReject, buildExecutionReport, cancelRejectInputOf, type BuiltMessage, type CancelRejectInput } from './fix-messages';

/**
 * Where application messages for a client go: the FIX acceptor's live session for that comp id.
 * `send` resolves with the MsgSeqNum once the message is stored by the session and written, or null
 * when the client is not logged on (the message then stays in the outbox).
 */
export interface ClientMessageSender {
  send(compId: string, msg: { msgType: string; body: Array<[number, string]>; possResend?: boolean }): Promise<number | null>;
}

type Item =
  | { kind: 'er'; er: ExecReportRow; order: OrderRow; legs: OrderLegRow[]; connectorId: number; recovered: boolean }
  | { kind: 'cxlrej'; id: number; reject: CancelRejectInput; connectorId: number }
  /** A message with no row behind it: sent in its place, lost if the client is offline. */
  | { kind: 'direct'; msg: { msgType: string; body: Array<[number, string]> } }
  /** Likewise, shaped by the client's profile when it is built (an intake refusal, a status answer). */
  | { kind: 'shaped'; connectorId: number; build: (profile: ClientProfile | undefined) => BuiltMessage };

/** Most messages handed to a session at once (they share its store round). */
const MAX_BURST = 500;

/**
 * Sends committed execution reports and cancel rejects to clients in commit order, one queue per
 * client, and marks each as sent. Reports are rows first (written in the order's transaction), so a
 * report that could not be sent (client offline, node stopped) goes out at the client's next logon,
 * flagged PossResend because it may have left once already.
 */
export class ClientOutbox {
  private readonly queues = new Map<string, Item[]>();
  private readonly running = new Set<string>();
  private readonly profiles = new Map<number, Promise<ClientProfile | undefined>>();

  constructor(
    private readonly db: Db,
    /** The clients' live sessions (ClientSessions). */
    private readonly sender: ClientMessageSender,
    private readonly log: FastifyBaseLogger,
    /** Told when a client's messages wait because it is not logged on here (its session may be on another node). */
    private readonly waiting?: (compId: string) => void,
  ) {}

  /** Forget cached client profiles (defaults, groups or specs changed). */
  invalidateProfiles(connectorId?: number): void {
    if (connectorId === undefined) {
      this.profiles.clear();
      this.loadedProfiles.clear();
    } else {
      this.profiles.delete(connectorId);
      this.loadedProfiles.delete(connectorId);
    }
  }

  /** Profiles already loaded, for callers that cannot wait (see buildNow). */
  private readonly loadedProfiles = new Map<number, ClientProfile | undefined>();

  private profile(connectorId: number): Promise<ClientProfile | undefined> {
    let p = this.profiles.get(connectorId);
    if (!p) {
      const loading: Promise<ClientProfile | undefined> = loadClientProfile(this.db, connectorId).then(
        (profile) => {
          // Only if no invalidation came in between: a stale profile must not be served from here.
          if (this.profiles.get(connectorId) === loading) this.loadedProfiles.set(connectorId, profile);
          return profile;
        },
        (err: unknown) => {
          if (this.profiles.get(connectorId) === loading) this.profiles.delete(connectorId);
          throw err;
        },
      );
      p = loading;
      this.profiles.set(connectorId, p);
    }
    return p;
  }

  /** Messages waiting in the client's queue (the service status page's queue depth). */
  queued(compId: string): number {
    return this.queues.get(compId)?.length ?? 0;
  }

  /**
   * True when nothing is queued or being sent for the client: a message sent now some other way (a
   * report the order core persists in the order's own commit) cannot overtake one of ours.
   */
  isIdle(compId: string): boolean {
    return !this.running.has(compId) && !this.queues.get(compId)?.length;
  }

  /**
   * Builds an execution report now, from the client's profile if it is already loaded (else starts
   * loading it and returns undefined: the caller then goes through the queue).
   */
  buildNow(
    compId: string,
    connectorId: number,
    er: ExecReportRow,
    order: OrderRow,
    legs: OrderLegRow[],
  ): { msgType: string; body: Array<[number, string]> } | undefined {
    if (!this.loadedProfiles.has(connectorId)) {
      this.profile(connectorId).catch(() => {});
      return undefined;
    }
    return this.checked(compId, buildExecutionReport(er, order, legs, this.loadedProfiles.get(connectorId)));
  }

  enqueueExecReport(compId: string, connectorId: number, er: ExecReportRow, order: OrderRow, legs: OrderLegRow[]): void {
    this.push(compId, { kind: 'er', er, order, legs, connectorId, recovered: false });
  }

  enqueueCancelReject(compId: string, connectorId: number, id: number, reject: CancelRejectInput): void {
    this.push(compId, { kind: 'cxlrej', id, reject, connectorId });
  }

  /**
   * A message with no row behind it, built from the client's profile (defaults, Parties, mandatory
   * fields) once it is its turn, behind what is already queued for the client.
   */
  enqueueShaped(compId: string, connectorId: number, build: (profile: ClientProfile | undefined) => BuiltMessage): void {
    this.push(compId, { kind: 'shaped', connectorId, build });
  }

  /** enqueueShaped's message built now when the client's profile is loaded; undefined otherwise (it starts loading). */
  shapeNow(compId: string, connectorId: number, build: (profile: ClientProfile | undefined) => BuiltMessage): BuiltMessage | undefined {
    if (!this.loadedProfiles.has(connectorId)) {
      this.profile(connectorId).catch(() => {});
      return undefined;
    }
    return this.checked(compId, build(this.loadedProfiles.get(connectorId)));
  }

  /** A message built by the caller, sent behind what is already queued for the client. */
  enqueueDirect(compId: string, msg: { msgType: string; body: Array<[number, string]> }): void {
    this.push(compId, { kind: 'direct', msg });
  }

  /** At a client's logon: everything committed but never sent, oldest first. */
  async recover(compId: string): Promise<number> {
    const { reports, orders, legs } = await unsentExecReportsWithOrders(this.db, compId);
    const queued = new Set((this.queues.get(compId) ?? []).flatMap((i) => (i.kind === 'er' ? [i.er.id] : [])));
    const recovered: Array<{ at: number; item: Item }> = [];
    let n = 0;
    for (const er of reports) {
      if (queued.has(er.id)) continue;
      const order = orders.get(Number(er.order_id));
      if (!order) continue;
      const item: Item = { kind: 'er', er, order, legs: legs.get(order.id) ?? [], connectorId: order.client_connector_id, recovered: true };
      recovered.push({ at: er.created_at.getTime(), item });
      n++;
    }
    for (const r of await unsentCancelRejects(this.db, compId)) {
      recovered.push({
        at: r.transacttime.getTime(),
        item: {
          kind: 'cxlrej',
          id: r.id,
          connectorId: r.connector_id,
          reject: cancelRejectInputOf(r),
        },
      });
      n++;
    }
    // Both kinds in the order they were committed (a stable sort keeps each table's own order).
    recovered.sort((a, b) => a.at - b.at);
    for (const r of recovered) this.push(compId, r.item);
    return n;
  }

  private push(compId: string, item: Item): void {
    let q = this.queues.get(compId);
    if (!q) {
      q = [];
      this.queues.set(compId, q);
    }
    q.push(item);
    if (!this.running.has(compId)) void this.drain(compId);
  }

  /** Resolves when nothing is queued for the client (tests, shutdown). */
  async idle(compId?: string): Promise<void> {
    for (;;) {
      await this.marking;
      const busy = (compId ? this.running.has(compId) : this.running.size > 0) || this.marking !== undefined;
      if (!busy) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private marks: Array<[number, number]> = [];
  private marking: Promise<void> | undefined;

  /**
   * Records that a report went out, batched into one UPDATE per burst. The message itself is already
   * durable in the FIX store; a mark lost in a crash only means the report is sent again, PossResend.
   */
  private markSent(id: number, seq: number): void {
    this.marks.push([id, seq]);
    this.marking ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const batch = this.marks;
      this.marks = [];
      this.marking = undefined;
      try {
        await markExecReportsSent(this.db, batch);
      } catch (err) {
        this.log.warn({ err, count: batch.length }, 'could not mark reports as sent; they will be resent flagged PossResend');
      }
    });
  }

  /**
   * Sends the client's queue in bursts: every message of a burst is handed to the session at once (it
   * persists them in one store round and writes them in order), then each is marked as sent.
   */
  private async drain(compId: string): Promise<void> {
    this.running.add(compId);
    try {
      const q = this.queues.get(compId)!;
      while (q.length > 0) {
        const burst: Array<{ item: Item; built: { msgType: string; body: Array<[number, string]> } }> = [];
        for (const item of q.slice(0, MAX_BURST)) {
          try {
            burst.push({ item, built: await this.build(compId, item) });
          } catch (err) {
            this.log.error({ err, compId }, 'could not build an outbound message; it stays in the outbox');
            break;
          }
        }
        if (!burst.length) break;
        const sender = this.sender;
        const results = await Promise.all(
          burst.map(({ item, built }) =>
            sender.send(compId, { msgType: built.msgType, body: built.body, possResend: item.kind === 'er' && item.recovered }).then(
              (seq) => ({ seq }),
              (err: unknown) => ({ err }),
            ),
          ),
        );
        const failed: Item[] = [];
        let offline = false;
        for (const [i, r] of results.entries()) {
          const item = burst[i]!.item;
          if ('err' in r) {
            this.log.warn({ err: r.err, compId }, 'send failed; retrying in 1 s');
            failed.push(item);
          } else if (r.seq === null) {
            offline = true;
          } else if (item.kind === 'er') {
            this.markSent(item.er.id, r.seq);
          } else if (item.kind === 'cxlrej') {
            await markCancelRejectSent(this.db, item.id, r.seq);
          }
        }
        if (offline) {
          // Not logged on here: keep the rest for recover() at the next logon, or at the node the
          // client is logged on to (told through `waiting`).
          q.length = 0;
          this.waiting?.(compId);
          break;
        }
        // A message whose send failed while the session is up is tried again before anything queued
        // after its burst.
        q.splice(0, burst.length, ...failed);
        if (failed.length) await new Promise((r) => setTimeout(r, 1000));
      }
    } catch (err) {
      this.log.error({ err, compId }, 'outbox drain failed');
    } finally {
      this.running.delete(compId);
    }
  }

  private async build(compId: string, item: Item): Promise<{ msgType: string; body: Array<[number, string]> }> {
    if (item.kind === 'direct') return item.msg;
    const profile = await this.profile(item.connectorId);
    if (item.kind === 'shaped') return this.checked(compId, item.build(profile));
    const built: BuiltMessage =
      item.kind === 'er' ? buildExecutionReport(item.er, item.order, item.legs, profile) : buildCancelReject(item.reject, profile);
    return this.checked(compId, built);
  }

  /** Logs what a client's configuration asked for and the message could not carry. */
  private checked(compId: string, built: BuiltMessage): BuiltMessage {
    if (built.dropped.length) {
      this.log.warn(
        { compId, msgType: built.msgType, tags: built.dropped },
        'configured fields not defined for this message type were left out',
      );
    }
    if (built.replaced.length) {
      this.log.warn({ compId, msgType: built.msgType, tags: built.replaced }, 'characters beyond Latin-1 in these fields were sent as ?');
    }
    if (built.missingMandatory.length) {
      this.log.warn(
        { compId, msgType: built.msgType, missing: built.missingMandatory },
        'mandatory fields of the client spec have no value',
      );
    }
    return built;
  }
}
