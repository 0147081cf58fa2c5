// The live session console. An administrator sees a client's FIX session as it is
// (logged on, address, HeartBtInt, next numbers, last message each way) and acts on it: logout with a
// reason, disconnect, reset both numbers, set the next sender or target number; each action only in
// the state where it is safe, with a typed reason, recorded with the user. Non-administrators get 403.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { createSessionCodec, Initiator, MemoryLogFactory, MemoryStoreFactory } from '@fixdesk/fix';
import type { SessionConsoleView } from '@fixdesk/protocol';
import { startTestServer, type TestServer } from '../support/server';
import { until } from '../support/until';

const COMP = 'CONSOLE_CLIENT';

/** A client that logs on once and stays down when logged out (no reconnect), keeping its numbers. */
class OneShotClient {
  readonly logs = new MemoryLogFactory();
  readonly stores = new MemoryStoreFactory();
  private initiator: Initiator | undefined;
  loggedOn = false;

  async logon(port: number, resetOnLogon = false): Promise<void> {
    this.initiator = await Initiator.start({
      host: '127.0.0.1',
      port,
      sessionID: { beginString: 'FIX.4.4', senderCompID: COMP, targetCompID: 'FIXDESK' },
      settings: { heartBtIntSec: 30, resetOnLogon },
      storeFactory: this.stores,
      codec: createSessionCodec(),
      logFactory: this.logs,
      reconnect: false,
      app: { onLogon: () => void (this.loggedOn = true), onLogout: () => void (this.loggedOn = false), fromApp: () => undefined },
    });
    await until('logon', () => this.loggedOn, 5_000);
  }

  /** Sets the client's own numbers while it is down, as its FIX team would. */
  async setNumbers(nextSender: number, nextTarget: number): Promise<void> {
    const store = await this.stores.open({ beginString: 'FIX.4.4', senderCompID: COMP, targetCompID: 'FIXDESK' }, new Date());
    await store.setNextSenderMsgSeqNum(nextSender);
    await store.setNextTargetMsgSeqNum(nextTarget);
  }

  get session() {
    return this.initiator!.session;
  }

  /** Messages the client received, raw with | for SOH. */
  received(): string[] {
    return this.logs.lines.filter((l) => l.kind === 'in').map((l) => l.text.replace(/\x01/g, '|'));
  }

  async stop(): Promise<void> {
    await this.initiator?.stop();
    this.initiator = undefined;
  }
}

for (const kind of TEST_DB_KINDS) {
  describe(`the live session console on ${kind}`, () => {
    let t: TestServer;
    let admin: string;
    let broker: string;
    let viewer: string;
    const client = new OneShotClient();

    const state = async (token = admin) => {
      const r = await t.api(`/api/client-connectors/${COMP}/session`, { token });
      assert.equal(r.status, 200, await r.clone().text());
      return ((await r.json()) as { data: SessionConsoleView }).data;
    };
    const act = (json: unknown, token = admin) => t.api(`/api/client-connectors/${COMP}/session/actions`, { method: 'POST', token, json });
    const fieldOf = async (r: Response) => ((await r.json()) as { field?: string }).field;

    /**
     * Logs the client on and waits until the server finished the Logon. The server writes its Logon
     * answer before it has persisted and taken the Logon's own number (as QuickFIX does: answer, then
     * count the Logon), so a client can see itself logged on while the server still expects 34 to be
     * the Logon's; the server's onLogon runs once the number is taken, and announces the session.
     */
    const logOn = async (resetOnLogon = false): Promise<void> => {
      const events = t.server.ctx.events;
      let listener: ((compId: string) => void) | undefined;
      let timer: NodeJS.Timeout | undefined;
      const finished = new Promise<void>((resolve, reject) => {
        // A late announcement of the previous logout must not count: the session must be served here.
        listener = (compId) => {
          if (compId === COMP && t.server.ctx.fix.ownership.served().some((s) => s.id.targetCompID === COMP)) resolve();
        };
        events.on('fix-session-changed', listener);
        timer = setTimeout(() => reject(new Error(`the server did not finish ${COMP}'s Logon`)), 10_000);
      });
      try {
        await client.logon(t.server.ctx.fix.port, resetOnLogon);
        await finished;
      } finally {
        events.off('fix-session-changed', listener!);
        clearTimeout(timer);
      }
    };

    before(async () => {
      t = await startTestServer(kind);
      [admin, broker, viewer] = await Promise.all([t.login('admin'), t.login('broker'), t.login('viewer')]);
      const r = await t.api('/api/client-connectors', {
        method: 'POST',
        token: admin,
        json: {
          comp_id: COMP,
          execution_id_prefix: 'CON',
          trading_days: 'M,T,W,T,F,S,S',
          start_time: '00:00:00',
          end_time: '23:59:59',
          timezone: 'UTC',
        },
      });
      assert.equal(r.status, 200, await r.text());
    });
    after(async () => {
      await client.stop();
      await t?.stop();
    });

    it('is for administrators only', async () => {
      for (const token of [broker, viewer]) {
        assert.equal((await t.api(`/api/client-connectors/${COMP}/session`, { token })).status, 403);
        assert.equal((await act({ action: 'disconnect', reason: 'not mine' }, token)).status, 403);
      }
      assert.equal((await t.api('/api/client-connectors/NOPE/session', { token: admin })).status, 404);
    });

    it('shows a logged-on client: address, HeartBtInt, next numbers, last message each way', async () => {
      await logOn();
      const { session } = await state();
      assert.equal(session.loggedOn, true);
      assert.equal(session.connected, true);
      assert.equal(session.remoteAddress, '127.0.0.1');
      assert.equal(session.transport, 'TCP');
      assert.equal(session.heartBtInt, 30);
      assert.equal(session.nextTargetMsgSeqNum, client.session.status().nextSenderMsgSeqNum);
      assert.equal(session.nextSenderMsgSeqNum, client.session.status().nextTargetMsgSeqNum);
      assert.equal(session.lastIn?.msgType, 'A');
      assert.equal(session.lastOut?.msgType, 'A');
      assert.equal(session.lastOut?.msgSeqNum, session.nextSenderMsgSeqNum - 1);
    });

    it('refuses bad input with the field, and number changes while the client is logged on', async () => {
      assert.equal(await fieldOf(await act({ action: 'logout' })), 'reason');
      assert.equal(await fieldOf(await act({ action: 'logout', reason: 'x' })), 'reason');
      assert.equal(await fieldOf(await act({ action: 'set_next_sender', reason: 'fix numbers', value: 0 })), 'value');
      assert.equal(await fieldOf(await act({ action: 'set_next_target', reason: 'fix numbers', value: 'ten' })), 'value');
      assert.equal((await act({ action: 'shutdown', reason: 'fix numbers' })).status, 400);
      for (const body of [
        { action: 'set_next_sender', reason: 'align with the client', value: 50 },
        { action: 'set_next_target', reason: 'align with the client', value: 50 },
        { action: 'reset_seqnums', reason: 'start of week' },
      ]) {
        const r = await act(body);
        assert.equal(r.status, 409);
        assert.match(((await r.json()) as { message: string }).message, /^Only while the client is logged out/);
      }
      const { session } = await state();
      assert.notEqual(session.nextSenderMsgSeqNum, 50);
    });

    it('logs the client out with the typed reason as the Logout text, and records who did it', async () => {
      const r = await act({ action: 'logout', reason: 'End of day maintenance' });
      assert.equal(r.status, 200, await r.clone().text());
      await until('the client logged out', () => !client.loggedOn, 5_000);
      const logout = client.received().find((m) => m.includes('|35=5|'));
      assert.ok(logout?.includes('|58=End of day maintenance|'), logout);
      await client.stop();
      const view = await state();
      assert.equal(view.session.loggedOn, false);
      assert.equal(view.session.remoteAddress, null);
      const op = view.operations[0]!;
      assert.equal(op.action, 'LOGOUT');
      assert.equal(op.reason, 'End of day maintenance');
      assert.equal(op.changedBy, 'admin');
      assert.equal(op.before?.loggedOn, true);
      // A second logout has nothing to log out.
      assert.equal((await act({ action: 'logout', reason: 'again please' })).status, 409);
      assert.equal((await act({ action: 'disconnect', reason: 'again please' })).status, 409);
    });

    it('sets the next sender and target numbers while logged out; the next Logon carries them', async () => {
      const before = (await state()).session;
      const rt = await act({ action: 'set_next_target', reason: 'client restarted its store at 20', value: 20 });
      assert.equal(rt.status, 200, await rt.clone().text());
      const rs = await act({ action: 'set_next_sender', reason: 'client expects 40 from us', value: 40 });
      assert.equal(rs.status, 200);
      const view = ((await rs.json()) as { data: SessionConsoleView }).data;
      assert.equal(view.session.nextTargetMsgSeqNum, 20);
      assert.equal(view.session.nextSenderMsgSeqNum, 40);
      const [sender, target] = view.operations;
      assert.equal(sender!.action, 'SET_NEXT_SENDER');
      assert.equal(sender!.before?.nextSenderMsgSeqNum, before.nextSenderMsgSeqNum);
      assert.equal(sender!.after?.nextSenderMsgSeqNum, 40);
      assert.equal(
        sender!.after?.preview,
        `Our next message to ${COMP} will carry 34=40 (now ${before.nextSenderMsgSeqNum}): our answer to the next Logon will carry 34=40.`,
      );
      assert.equal(target!.action, 'SET_NEXT_TARGET');
      assert.equal(target!.after?.nextTargetMsgSeqNum, 20);
      // The client's side agrees (as its FIX team would set it): it logs on with 34=20 and gets 34=40.
      await client.setNumbers(20, 40);
      const seen = client.received().length;
      await logOn();
      const logonAnswer = client
        .received()
        .slice(seen)
        .find((m) => m.includes('|35=A|'));
      assert.ok(logonAnswer?.includes('|34=40|'), logonAnswer);
      assert.equal((await state()).session.nextTargetMsgSeqNum, 21);
    });

    it('disconnects at once, then resets both numbers; the next Logon carries 141=Y and 34=1', async () => {
      const r = await act({ action: 'disconnect', reason: 'stuck session' });
      assert.equal(r.status, 200, await r.clone().text());
      await until('the connection dropped', () => !client.loggedOn, 5_000);
      await client.stop();
      const reset = await act({ action: 'reset_seqnums', reason: 'both sides start again' });
      assert.equal(reset.status, 200);
      const view = ((await reset.json()) as { data: SessionConsoleView }).data;
      assert.equal(view.session.nextSenderMsgSeqNum, 1);
      assert.equal(view.session.nextTargetMsgSeqNum, 1);
      assert.deepEqual(
        view.operations.slice(0, 2).map((o) => o.action),
        ['RESET_SEQNUMS', 'DISCONNECT'],
      );
      const seen = client.received().length;
      await logOn(true);
      const answer = client
        .received()
        .slice(seen)
        .find((m) => m.includes('|35=A|'));
      assert.ok(answer?.includes('|34=1|') && answer.includes('|141=Y|'), answer);
      await client.session.logout('done');
      await until('logout', () => !client.loggedOn, 5_000);
    });

    it('keeps the console history append-only', async () => {
      const { rows } = await t.database.db.query<{ action: string; changed_by: string }>(
        `SELECT action, changed_by FROM session_operations WHERE comp_id = $1 ORDER BY id`,
        [COMP],
      );
      assert.deepEqual(
        rows.map((r) => r.action),
        ['LOGOUT', 'SET_NEXT_TARGET', 'SET_NEXT_SENDER', 'DISCONNECT', 'RESET_SEQNUMS'],
      );
      assert.ok(rows.every((r) => r.changed_by === 'admin'));
      await assert.rejects(t.database.db.query('DELETE FROM session_operations'), /append-only/);
      await assert.rejects(t.database.db.query(`UPDATE session_operations SET reason = 'edited'`), /append-only/);
    });
  });
}
