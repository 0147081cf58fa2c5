import { randomBytes } from 'node:crypto';
import { fixSessionLeaseName, getConnector, getLeases, type ConnectorRow, type Db } from '@fixdesk/db';
import { SessionActionSchema, type SessionActionInput, type SessionConsoleState } from '@fixdesk/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { NodeBus } from '../cluster/node-bus';
import type { FixGateway } from './gateway';
import { sessionIdOf } from './session-ownership';

/** The node bus channel on which operators' questions reach the node holding a session, and its answers return. */
const SESSION_CONSOLE_CHANNEL = 'fixdesk_session_console';

/** How long an operator waits for the node holding the session. */
const ANSWER_WITHIN_MS = 5_000;

/** A question to the node holding a client's session: its state, or an action and then its state. */
interface Question {
  q: string;
  to: string;
  from: string;
  c: string;
  a: SessionActionInput | null;
}

/** The answer: the session's state after the action, or why it failed (the bus's envelope takes n, i and s). */
interface Answer {
  r: string;
  to: string;
  state?: SessionConsoleState;
  error?: string;
}

/** The node holding a session did not answer, or could not do what was asked. */
export class SessionElsewhereError extends Error {}

/**
 * The live session console's reads and actions on a client's FIX session, wherever it is. A session
 * lives in the memory of the node holding its lease (docs/adr/0012): its state is read there and its
 * actions are taken there, so an operator signed in on another node asks that node over the node bus
 * and gets the session's state back. A session no node holds is read and changed here (its numbers
 * are in the database, and a change takes its lease for the time it lasts).
 */
export class SessionConsole {
  private readonly waiting = new Map<
    string,
    { resolve: (s: SessionConsoleState) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }
  >();
  private readonly prefix = randomBytes(4).toString('hex');
  private asked = 0;

  constructor(
    private readonly db: Db,
    private readonly fix: FixGateway,
    private readonly nodeId: string,
    private readonly bus: NodeBus | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Answers the other nodes' questions about the sessions this node holds. */
  async start(): Promise<void> {
    // A lost question or answer is not asked again: the operator's wait ends with an error.
    await this.bus?.subscribe(
      SESSION_CONSOLE_CHANNEL,
      (body) => void this.received(body),
      () => {},
    );
  }

  /** The client's session as it is now. */
  async state(c: ConnectorRow): Promise<SessionConsoleState> {
    const owner = await this.ownerElsewhere(c);
    return owner ? this.ask(owner, c.comp_id, null) : this.fix.operations.consoleState(c);
  }

  /**
   * Carries out an operator's action where the session is; resolves once it is done, with the
   * session's state read there at once (a Logout's is the closed connection, before any reconnect).
   */
  async act(c: ConnectorRow, input: SessionActionInput): Promise<SessionConsoleState> {
    const owner = await this.ownerElsewhere(c);
    if (owner) return this.ask(owner, c.comp_id, input);
    await this.actHere(c, input);
    return this.fix.operations.consoleState(c);
  }

  private async actHere(c: ConnectorRow, input: SessionActionInput): Promise<void> {
    switch (input.action) {
      case 'logout':
        return this.fix.operations.logout(c, input.reason);
      case 'disconnect':
        return this.fix.operations.disconnect(c, input.reason);
      case 'reset_seqnums':
        return this.fix.operations.resetSequence(c);
      case 'set_next_sender':
        return this.fix.operations.setNextSenderMsgSeqNum(c, input.value);
      case 'set_next_target':
        return this.fix.operations.setNextTargetMsgSeqNum(c, input.value);
    }
  }

  /** The live node holding the client's session lease, when it is another one. */
  private async ownerElsewhere(c: ConnectorRow): Promise<string | undefined> {
    if (!this.bus) return undefined;
    const name = fixSessionLeaseName(sessionIdOf(c));
    if (this.fix.ownership.holds(name)) return undefined;
    const [lease] = await getLeases(this.db, [name]);
    return lease?.live && lease.owner !== this.nodeId ? lease.owner : undefined;
  }

  private ask(owner: string, compId: string, action: SessionActionInput | null): Promise<SessionConsoleState> {
    const q = `${this.prefix}-${++this.asked}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(q);
        reject(
          new SessionElsewhereError(`Node ${owner} holds the session of ${compId} and did not answer within ${ANSWER_WITHIN_MS / 1000} s`),
        );
      }, ANSWER_WITHIN_MS);
      this.waiting.set(q, { resolve, reject, timer });
      const question: Question = { q, to: owner, from: this.nodeId, c: compId, a: action };
      this.bus!.publish(SESSION_CONSOLE_CHANNEL, { ...question });
    });
  }

  private async received(body: Record<string, unknown>): Promise<void> {
    if (body.to !== this.nodeId) return;
    if (typeof body.r === 'string') {
      const a = body as unknown as Answer;
      const w = this.waiting.get(a.r);
      if (!w) return;
      this.waiting.delete(a.r);
      clearTimeout(w.timer);
      if (a.state) w.resolve(a.state);
      else w.reject(new SessionElsewhereError(a.error ?? 'the node holding the session could not answer'));
      return;
    }
    if (typeof body.q !== 'string' || typeof body.from !== 'string' || typeof body.c !== 'string') return;
    const q = body as unknown as Question;
    const answer = (a: Omit<Answer, 'r' | 'to'>) => this.bus!.publish(SESSION_CONSOLE_CHANNEL, { r: q.q, to: q.from, ...a });
    try {
      const c = await getConnector(this.db, q.c);
      if (!c) throw new Error(`Client connector ${q.c} not found`);
      if (q.a) await this.actHere(c, SessionActionSchema.parse(q.a));
      answer({ state: await this.fix.operations.consoleState(c) });
    } catch (err) {
      this.log.warn({ err, compId: q.c, from: q.from }, 'session console: a question from another node failed');
      answer({ error: `Node ${this.nodeId}: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
}
