import {
  listDropCopyCovers,
  markDropCopiesSent,
  newestUnsentDropCopyId,
  storeDropCopiesSent,
  unsentDropCopies,
  type Db,
  type DropCopyCoverRow,
  type LeaseFence,
  type UnsentDropCopy,
} from '@fixdesk/db';
import type { SendReservation } from '@fixdesk/fix';
import type { FastifyBaseLogger } from 'fastify';
import { buildDropCopy, cancelRejectInputOf, refusalInputOf, type BuiltMessage } from './fix-messages';
import type { ClientMessageSender } from './outbox';

/** Most copies read and handed to a drop copy session at once (one read, one store round). */
const MAX_BURST = 500;
/** A drop copy session's comp id is announced to the other nodes at most once in this many ms (and once more after). */
const ANNOUNCE_EVERY_MS = 50;

/** Which active drop copy connectors cover which clients, read once and kept until a connector changes. */
interface Covers {
  readonly none: boolean;
  /** The connectors covering every client (an empty list). */
  readonly everyClient: readonly DropCopyCoverRow[];
  /** Per client named in a list: its connectors, those covering every client included, in id order. */
  readonly named: ReadonlyMap<string, readonly DropCopyCoverRow[]>;
  readonly byCompId: ReadonlyMap<string, DropCopyCoverRow>;
}

function coversOf(rows: readonly DropCopyCoverRow[]): Covers {
  const everyClient = rows.filter((r) => r.drop_copy_of.length === 0);
  const named = new Map<string, DropCopyCoverRow[]>();
  for (const r of rows) for (const client of r.drop_copy_of) named.set(client, []);
  for (const [client, list] of named) list.push(...rows.filter((r) => r.drop_copy_of.length === 0 || r.drop_copy_of.includes(client)));
  return { none: rows.length === 0, everyClient, named, byCompId: new Map(rows.map((r) => [r.comp_id, r])) };
}

/**
 * Takes a copy's number on the drop copy session's live session without sending it (Session.reserveSend,
 * ClientSessions): the copy is then stored in the statement that marks it sent, and written once that
 * committed. Undefined when the session cannot reserve now (then the copy goes the sender's way).
 */
export interface DropCopyReserver {
  reserve(
    compId: string,
    msg: { msgType: string; body: Array<[number, string]>; possResend?: boolean },
  ): { beginString: string; reservation: SendReservation; fence?: LeaseFence | undefined } | undefined;
}

/** One drop copy session logged on here, from its logon's recovery to its logout. */
interface DropCopySession {
  readonly compId: string;
  readonly connectorId: number;
  running: boolean;
  /** Told of new copies while a burst was out: read again before stopping. */
  again: boolean;
  /** Copies up to this id were waiting at the logon: they go out flagged PossResend. */
  resendUpTo: number;
  /**
   * Copies sent and not marked yet, [copy id, MsgSeqNum]: kept out of the next read, which marks them
   * (or the drain's last mark). A mark that did not commit keeps them here.
   */
  unmarked: ReadonlyArray<readonly [number, number]>;
}

/**
 * Sends drop copy sessions their copies (docs/adr/0017 points 3, 5 and 7). The copies are rows written
 * with the reports they copy (migration 24's triggers; a refusal's by the intake statement that drew
 * its ExecID); this reads a session's unsent ones in id order
 * (bursts of up to 500, one statement each, which also marks the burst before it sent), hands them
 * to the session (which numbers and stores each before its bytes leave), and marks the last burst
 * when the drain stops. It is woken by the order core after a commit
 * that made a client's reports (OrderReplies), for every drop copy session covering the client that is
 * logged on here; a session that is not is announced to the other nodes (`announce`), whose owner of it
 * drains it. At a drop copy session's logon `recover` sends what waited when the Logon came (`markLogon`),
 * flagged PossResend, and what was made since, live.
 */
export class DropCopyOutbox {
  private covers: Covers | undefined;
  private loading: Promise<Covers> | undefined;
  /** Clients told of while the covers were loading. */
  private readonly toldWhileLoading = new Set<string>();
  private readonly sessions = new Map<string, DropCopySession>();
  private readonly announced = new Map<string, { timer: NodeJS.Timeout | undefined; again: boolean }>();
  /** The drain running per session. */
  private readonly running = new Map<string, Promise<void>>();
  /** Per drop copy session whose Logon is being answered: the newest copy waiting then (markLogon). */
  private readonly logonMarks = new Map<string, { connectorId: number; newest: number | null }>();

  constructor(
    private readonly db: Db,
    /** The live sessions (ClientSessions), the same sender as the client's outbox. */
    private readonly sender: ClientMessageSender,
    /** Whether a session is logged on to this node. */
    private readonly isLive: (compId: string) => boolean,
    private readonly log: FastifyBaseLogger,
    /** Tells the other nodes that a drop copy session has copies waiting (the outbox channel). */
    private readonly announce?: (dropCopyCompId: string) => void,
    /** The live sessions' reservations (ClientSessions); without it every copy goes through `sender`. */
    private readonly reserver?: DropCopyReserver,
  ) {}

  /**
   * After a commit that made reports for the client (execution reports, cancel rejects): the drop copy
   * sessions covering it send their copies. Costs a map lookup when no drop copy connector exists.
   */
  reportsMade(clientCompId: string): void {
    const covers = this.covers;
    if (!covers) {
      this.toldWhileLoading.add(clientCompId);
      void this.load();
      return;
    }
    if (covers.none) return;
    for (const dc of covers.named.get(clientCompId) ?? covers.everyClient) this.kick(dc.comp_id);
  }

  /** A connector changed (here or on another node): the covers are read again, and the sessions here look at their queues. */
  invalidate(): void {
    this.covers = undefined;
    this.loading = undefined;
    void this.load(true);
  }

  /** Whether `compId` is a drop copy session logged on here (recovered at its logon). */
  serves(compId: string): boolean {
    return this.sessions.has(compId);
  }

  /** Copies made elsewhere (another node's announcement, a gap on the node bus): the session sends them if it is here. */
  wake(dropCopyCompId: string): void {
    const s = this.sessions.get(dropCopyCompId);
    if (s) this.drain(s);
  }

  /** The drop copy sessions logged on here. */
  loggedOn(): string[] {
    return [...this.sessions.keys()];
  }

  /**
   * At a drop copy session's logon (after the client outbox's recovery): every copy still unsent goes
   * out, oldest first; those waiting when the Logon came (markLogon) flagged PossResend, whether or not
   * the logon reset the numbers. Resolves once their sending has started: true when copies were waiting.
   */
  async recover(dropCopyCompId: string): Promise<boolean> {
    const dc = await this.connectorOf(dropCopyCompId);
    if (!dc) return false;
    // A drain of an earlier logon still running finishes first: no copy goes out twice at once.
    await this.running.get(dropCopyCompId);
    const marked = this.logonMarks.get(dropCopyCompId);
    this.logonMarks.delete(dropCopyCompId);
    const newest = marked && marked.connectorId === dc.id ? marked.newest : await newestUnsentDropCopyId(this.db, dc.id);
    const s: DropCopySession = {
      compId: dropCopyCompId,
      connectorId: dc.id,
      running: false,
      again: false,
      resendUpTo: newest ?? 0,
      unmarked: [],
    };
    this.sessions.set(dropCopyCompId, s);
    this.drain(s);
    return newest !== null;
  }

  /**
   * At a drop copy session's Logon, before it is answered: the newest copy waiting then. What was made
   * up to it was missed and goes out flagged PossResend at the logon's recovery; what is made after
   * it, even before the recovery runs, is live. A failed read leaves the recovery to read it.
   */
  async markLogon(dropCopyCompId: string): Promise<void> {
    this.logonMarks.delete(dropCopyCompId);
    try {
      const dc = await this.connectorOf(dropCopyCompId);
      if (dc) this.logonMarks.set(dropCopyCompId, { connectorId: dc.id, newest: await newestUnsentDropCopyId(this.db, dc.id) });
    } catch (err) {
      this.log.warn({ err, dropCopy: dropCopyCompId }, 'could not read the drop copies waiting at the logon; its recovery reads them');
    }
  }

  /** The active drop copy connector of this comp id, read again once if this node has not heard of it yet. */
  private async connectorOf(dropCopyCompId: string): Promise<DropCopyCoverRow | undefined> {
    const dc = (await this.load()).byCompId.get(dropCopyCompId);
    if (dc) return dc;
    // A connector made a drop copy a moment ago, before its change reached this node: read again.
    this.covers = undefined;
    this.loading = undefined;
    return (await this.load()).byCompId.get(dropCopyCompId);
  }

  /** The drop copy session logged out here: its copies wait in their rows for its next logon. */
  loggedOff(dropCopyCompId: string): void {
    this.sessions.delete(dropCopyCompId);
  }

  /** Resolves when no drain runs (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running.values()]);
  }

  /**
   * The session's next burst: its oldest unsent copies but those sent and not marked yet, which the
   * same statement marks sent (the previous burst's, and any whose mark failed). Those stay in
   * `unmarked` until that statement succeeds.
   */
  private async waiting(s: DropCopySession): Promise<UnsentDropCopy[]> {
    const marks = s.unmarked;
    const copies = await unsentDropCopies(this.db, s.connectorId, MAX_BURST, marks);
    if (s.unmarked === marks) s.unmarked = [];
    return copies;
  }

  private load(thenWakeAll = false): Promise<Covers> {
    if (this.loading) return this.loading;
    const loading: Promise<Covers> = listDropCopyCovers(this.db).then(
      (rows) => {
        const covers = coversOf(rows);
        if (this.loading !== loading) return covers;
        this.covers = covers;
        const told = [...this.toldWhileLoading];
        this.toldWhileLoading.clear();
        for (const client of told) this.reportsMade(client);
        // Copies made while the covers were out of date were told to no session: each here looks.
        if (thenWakeAll) for (const s of this.sessions.values()) this.drain(s);
        return covers;
      },
      (err: unknown) => {
        if (this.loading === loading) this.loading = undefined;
        this.log.error({ err }, 'could not read the drop copy connectors; copies wait for the next report or logon');
        throw err;
      },
    );
    loading.catch(() => {});
    this.loading = loading;
    return loading;
  }

  private kick(dropCopyCompId: string): void {
    const s = this.sessions.get(dropCopyCompId);
    if (s && this.isLive(dropCopyCompId)) this.drain(s);
    else if (!s && !this.isLive(dropCopyCompId)) this.announceSoon(dropCopyCompId);
    // Logged on here and not recovered yet: its logon's recovery sends the copy.
  }

  /** One announcement now, then at most one more per ANNOUNCE_EVERY_MS while copies keep coming. */
  private announceSoon(dropCopyCompId: string): void {
    const announce = this.announce;
    if (!announce) return;
    const pending = this.announced.get(dropCopyCompId);
    if (pending) {
      pending.again = true;
      return;
    }
    announce(dropCopyCompId);
    const entry = { timer: undefined as NodeJS.Timeout | undefined, again: false };
    const quiet = () => {
      if (entry.again) {
        entry.again = false;
        announce(dropCopyCompId);
        entry.timer = setTimeout(quiet, ANNOUNCE_EVERY_MS);
        entry.timer.unref();
      } else this.announced.delete(dropCopyCompId);
    };
    entry.timer = setTimeout(quiet, ANNOUNCE_EVERY_MS);
    entry.timer.unref();
    this.announced.set(dropCopyCompId, entry);
  }

  /**
   * One drain loop per session: a wake while it runs makes it read once more before it stops, also a
   * wake that comes after its last read, while it marks what it sent (it drains again then).
   */
  private drain(s: DropCopySession): void {
    if (s.running) {
      s.again = true;
      return;
    }
    s.running = true;
    const run = this.run(s).finally(() => {
      s.running = false;
      if (this.running.get(s.compId) === run) this.running.delete(s.compId);
      if (s.again && this.sessions.get(s.compId) === s) this.drain(s);
    });
    this.running.set(s.compId, run);
  }

  private async run(s: DropCopySession): Promise<void> {
    try {
      await this.bursts(s);
    } catch (err) {
      this.log.error({ err, dropCopy: s.compId }, 'drop copy drain failed; the copies wait for the next report or logon');
    }
    // What was sent since the last read is marked before the loop ends (a logon's recovery waits for it).
    await this.mark(s);
  }

  /**
   * Reads, sends, reads again while there is more. Each read marks what the burst before it sent
   * (one statement per burst); the last burst's marks are written by `run` when the loop ends.
   */
  private async bursts(s: DropCopySession): Promise<void> {
    for (;;) {
      if (this.sessions.get(s.compId) !== s) return;
      s.again = false;
      const copies = await this.waiting(s);
      if (!copies.length) {
        if (s.again) continue;
        return;
      }
      const built: Array<{ copy: UnsentDropCopy; msg: BuiltMessage }> = [];
      for (const copy of copies) {
        try {
          built.push({ copy, msg: buildDropCopy(sourceOf(copy)) });
        } catch (err) {
          // Nothing after it may overtake it: the burst stops here and the copy waits (logged).
          this.log.error({ err, dropCopy: s.compId, copyId: copy.id }, 'could not build a drop copy; it stays unsent');
          break;
        }
      }
      if (!built.length) return;
      // Stored and marked in one commit (the usual way); what could not be reserved goes the sender's way.
      const builtCount = built.length;
      const reserved = await this.sendReserved(s, built);
      if (reserved === builtCount) {
        if (builtCount < copies.length || (copies.length < MAX_BURST && !s.again)) return;
        continue;
      }
      built.splice(0, reserved);
      const results = await Promise.all(
        built.map(({ copy, msg }) =>
          this.sender.send(s.compId, { msgType: msg.msgType, body: msg.body, possResend: copy.id <= s.resendUpTo }).then(
            (seq) => ({ seq }),
            (err: unknown) => ({ err }),
          ),
        ),
      );
      const sent: Array<[number, number]> = [];
      let offline = false;
      let failed = false;
      for (const [i, r] of results.entries()) {
        if ('err' in r) {
          if (!failed) this.log.warn({ err: r.err, dropCopy: s.compId }, 'sending a drop copy failed; trying again in 1 s');
          failed = true;
        } else if (r.seq === null) offline = true;
        else sent.push([built[i]!.copy.id, r.seq]);
      }
      // Sent: kept out of the next read, which marks them.
      s.unmarked = [...s.unmarked, ...sent];
      // Logged out meanwhile: what is left waits for its next logon (recover).
      if (offline) return;
      if (failed) await new Promise((r) => setTimeout(r, 1000));
      // A copy that could not be built holds the rest back (logged); a short burst read everything
      // committed before it, and a wake since (s.again) means more.
      else if (builtCount < copies.length || (copies.length < MAX_BURST && !s.again)) return;
    }
  }

  /**
   * Reserves the copies' numbers on the session, in order, then stores their messages and marks them sent
   * in one statement (storeDropCopiesSent: one commit a burst), then writes them. Answers how many went
   * this way: from the first the session could not reserve on, the rest go through the sender. A failed
   * commit releases the numbers (the session drops its connection: those copies wait, unsent, for the
   * next logon) and fails the drain.
   */
  private async sendReserved(s: DropCopySession, built: ReadonlyArray<{ copy: UnsentDropCopy; msg: BuiltMessage }>): Promise<number> {
    const reserver = this.reserver;
    if (!reserver) return 0;
    const taken: Array<{ id: number; r: NonNullable<ReturnType<DropCopyReserver['reserve']>> }> = [];
    for (const { copy, msg } of built) {
      const r = reserver.reserve(s.compId, { msgType: msg.msgType, body: msg.body, possResend: copy.id <= s.resendUpTo });
      if (!r) break;
      taken.push({ id: copy.id, r });
    }
    if (!taken.length) return 0;
    try {
      await storeDropCopiesSent(
        this.db,
        taken.map(({ r }) => ({
          beginString: r.beginString,
          record: r.reservation.record,
          storeCreationTime: r.reservation.storeCreationTime,
          fence: r.fence,
        })),
        taken.map(({ id, r }) => [id, r.reservation.msgSeqNum]),
      );
    } catch (err) {
      for (const { r } of taken) r.reservation.failed(err);
      throw err;
    }
    for (const { r } of taken) void r.reservation.committed();
    return taken.length;
  }

  /**
   * One UPDATE for the copies sent and not marked yet (the drain's last burst, any earlier mark that
   * failed). A failed mark keeps those copies out of the next reads of this logon, which mark them; at
   * the next logon they go again, PossResend.
   */
  private async mark(s: DropCopySession): Promise<void> {
    const marks = s.unmarked;
    if (!marks.length) return;
    try {
      await markDropCopiesSent(this.db, marks);
      if (s.unmarked === marks) s.unmarked = [];
    } catch (err) {
      this.log.warn(
        { err, dropCopy: s.compId, count: marks.length },
        'could not mark drop copies as sent; they go again at the next logon',
      );
    }
  }
}

function sourceOf(copy: UnsentDropCopy): Parameters<typeof buildDropCopy>[0] {
  if (copy.source === 'er') return { kind: 'er', clientCompId: copy.clientCompId, er: copy.er, order: copy.order, legs: copy.legs };
  if (copy.source === 'refusal') return { kind: 'refusal', clientCompId: copy.clientCompId, refusal: refusalInputOf(copy.refusal) };
  return { kind: 'cxlrej', clientCompId: copy.clientCompId, reject: cancelRejectInputOf(copy.reject) };
}
