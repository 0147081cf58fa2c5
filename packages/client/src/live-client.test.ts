import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  closeReason,
  createLiveClient,
  MAX_RECONNECT_DELAY_MS,
  RECONNECT_INTERVAL_MS,
  reconnectDelayMs,
  SILENCE_TIMEOUT_MS,
  type SocketLike,
} from './live-client';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number, reason?: string) {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }
  // server side
  receive(message: unknown) {
    this.readyState = 1;
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
  drop(code = 1006, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

function harness(token: string | null = 'tok') {
  let now = 1_000_000;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let nextId = 1;
  const sockets: FakeSocket[] = [];
  const warnings: string[] = [];
  const client = createLiveClient({
    url: () => 'ws://desk.test/ws',
    getToken: () => token,
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id) => timers.delete(id as number),
    now: () => now,
    warn: (message) => warnings.push(message),
  });
  function advance(ms: number) {
    const until = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = until;
  }
  const last = () => sockets[sockets.length - 1]!;
  const welcomeAndAuth = (s = last()) => {
    s.receive({ type: 'welcome', protocolVersion: 1, serverTime: '', message: '' });
    s.receive({
      type: 'authenticated',
      user: { username: 'broker' },
      connectedUsers: 2,
      activeUsers: [{ username: 'broker' }, { username: 'admin' }],
    });
  };
  return { client, sockets, warnings, advance, last, welcomeAndAuth, now: () => now, setToken: (t: string | null) => (token = t) };
}

describe('live client', () => {
  it('opens on the first hold, authenticates with the stored token and reports users online', () => {
    const h = harness();
    assert.equal(h.client.getState().status, 'idle');
    h.client.hold();
    assert.equal(h.client.getState().status, 'connecting');
    assert.equal(h.last().url, 'ws://desk.test/ws');
    h.welcomeAndAuth();
    assert.deepEqual(h.last().sent[0], { type: 'authenticate', token: 'tok', protocolVersion: 1 });
    const s = h.client.getState();
    assert.equal(s.status, 'connected');
    assert.equal(s.connectedUsers, 2);
    assert.equal(s.activeUsers.length, 2);
    assert.equal(s.session, 1);
    h.last().receive({ type: 'heartbeat', timestamp: '', connectedUsers: 1, activeUsers: [{ username: 'broker' }] });
    assert.equal(h.client.getState().connectedUsers, 1);
  });

  it('dispatches messages by type, in order, and warns about types nobody handles', () => {
    const h = harness();
    const seen: string[] = [];
    h.client.subscribe('new_order', (m) => seen.push(`new:${m.orderData.id}`));
    const off = h.client.subscribe('order_update', (m) => seen.push(`upd:${m.orderData.id}`));
    h.client.hold();
    h.welcomeAndAuth();
    h.last().receive({ type: 'new_order', orderData: { id: 1 } });
    h.last().receive({ type: 'order_update', orderData: { id: 1 } });
    off();
    h.last().receive({ type: 'order_update', orderData: { id: 2 } });
    h.last().receive({ type: 'quote_request' });
    h.last().receive('not json');
    h.last().receive({ no: 'type' });
    assert.deepEqual(seen, ['new:1', 'upd:1']);
    // The FIX client simulator's messages reach every signed-in browser; the blotter does not listen to them.
    h.last().receive({ type: 'test_client_execution', comp_id: 'SGX_CLIENT_1' });
    // Spec 000 §7 lists order_data among the live message types.
    h.last().receive({ type: 'order_data', orderData: { id: 1 } });
    assert.ok(!h.warnings.some((w) => w.includes('order_data')), 'order_data is a known type');
    assert.ok(!h.warnings.some((w) => w.includes('order_update')), 'a known type without listeners is not a problem');
    assert.ok(!h.warnings.some((w) => w.includes('test_client_execution')), 'every type the server sends is known');
    assert.ok(h.warnings.some((w) => w.includes('unhandled message type quote_request')));
    assert.ok(h.warnings.some((w) => w.includes('not JSON')));
    assert.ok(h.warnings.some((w) => w.includes('without a type')));
  });

  it('keeps dispatching when one handler throws', () => {
    const h = harness();
    const seen: number[] = [];
    h.client.subscribe('new_order', () => {
      throw new Error('boom');
    });
    h.client.subscribe('new_order', (m) => seen.push(m.orderData.id));
    h.client.hold();
    h.welcomeAndAuth();
    h.last().receive({ type: 'new_order', orderData: { id: 7 } });
    assert.deepEqual(seen, [7]);
  });

  it("reloads on the server's resync, as after a reconnect, without dropping the connection", () => {
    const h = harness();
    const seen: string[] = [];
    h.client.subscribe('resync', (m) => seen.push(m.reason));
    h.client.hold();
    h.welcomeAndAuth();
    assert.equal(h.client.getState().session, 1);
    h.last().receive({ type: 'resync', reason: 'order changes of other nodes were missed' });
    assert.equal(h.client.getState().session, 2);
    assert.equal(h.client.getState().status, 'connected');
    assert.equal(h.sockets.length, 1);
    assert.deepEqual(seen, ['order changes of other nodes were missed']);
    assert.ok(!h.warnings.some((w) => w.includes('resync')));
  });

  it('answers the server ping with a pong', () => {
    const h = harness();
    h.client.hold();
    h.welcomeAndAuth();
    h.last().receive({ type: 'ping', timestamp: 42 });
    assert.deepEqual(h.last().sent.at(-1), { type: 'pong', timestamp: 42 });
  });

  it('waits 3, 6, 12, 24 s and then 30 s between tries, for ever', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 50, 1000].map(reconnectDelayMs), [3000, 6000, 12_000, 24_000, 30_000, 30_000, 30_000, 30_000]);
    assert.equal(MAX_RECONNECT_DELAY_MS, 30_000);
  });

  it('keeps reconnecting with that back-off for as long as the page holds it; Retry now starts again', () => {
    const h = harness();
    h.client.hold();
    h.welcomeAndAuth();
    h.last().drop();
    // An hour of outage: every try comes at its scheduled delay, none is ever the last.
    let elapsed = 0;
    for (let attempt = 1; elapsed < 3_600_000; attempt++) {
      const s = h.client.getState();
      assert.equal(s.status, 'reconnecting');
      assert.equal(s.attempt, attempt);
      const delay = reconnectDelayMs(attempt);
      assert.ok(delay <= MAX_RECONNECT_DELAY_MS, 'capped at 30 s');
      const before = h.sockets.length;
      h.advance(delay - 1);
      assert.equal(h.sockets.length, before, 'no try before the delay');
      h.advance(1);
      assert.equal(h.sockets.length, before + 1, `try ${attempt} after ${delay} ms`);
      h.last().drop();
      elapsed += delay;
    }
    assert.equal(h.client.getState().status, 'reconnecting');
    assert.ok(h.client.getState().attempt > 100, 'still trying after an hour');

    h.client.retry();
    assert.equal(h.client.getState().status, 'connecting');
    h.welcomeAndAuth();
    assert.equal(h.client.getState().status, 'connected');
    assert.equal(h.client.getState().attempt, 0);
    assert.equal(h.client.getState().session, 2, 'a new session tells subscribers to resynchronise');
    h.last().drop();
    assert.equal(h.client.getState().nextRetryAt! - h.now(), RECONNECT_INTERVAL_MS, 'the back-off starts again after a reconnect');
  });

  it('says why the connection ended in words, never a close code', () => {
    assert.equal(closeReason(1006, ''), 'The connection to the server was lost');
    assert.equal(closeReason(1001, ''), 'The server is restarting');
    assert.equal(closeReason(4500, 'network down'), 'network down');
  });

  it('starts the back-off again after a successful reconnect', () => {
    const h = harness();
    h.client.hold();
    h.welcomeAndAuth();
    h.last().drop();
    h.advance(reconnectDelayMs(1));
    h.last().drop();
    h.advance(reconnectDelayMs(2));
    h.welcomeAndAuth();
    h.last().drop();
    assert.equal(h.client.getState().attempt, 1);
  });

  it('treats 40 s of silence as a lost connection', () => {
    const h = harness();
    h.client.hold();
    h.welcomeAndAuth();
    h.advance(SILENCE_TIMEOUT_MS - 1);
    assert.equal(h.client.getState().status, 'connected');
    h.advance(1);
    assert.equal(h.client.getState().status, 'reconnecting');
    assert.ok(h.sockets[0]!.closedWith);
  });

  it('counts the silence from the last frame, however many frames came before', () => {
    const h = harness();
    h.client.hold();
    h.welcomeAndAuth();
    for (let i = 0; i < 30; i++) {
      h.advance(1000);
      h.last().receive({ type: 'heartbeat', connectedUsers: 1, activeUsers: [] });
    }
    h.advance(SILENCE_TIMEOUT_MS - 1);
    assert.equal(h.client.getState().status, 'connected');
    h.advance(1);
    assert.equal(h.client.getState().status, 'reconnecting');
  });

  it('does not retry a refused token', () => {
    const h = harness();
    h.client.hold();
    h.last().receive({ type: 'welcome' });
    h.last().drop(4003, 'Invalid or expired token');
    assert.equal(h.client.getState().status, 'refused');
    assert.equal(h.client.getState().lastError, 'Invalid or expired token');
    h.advance(60_000);
    assert.equal(h.sockets.length, 1);
  });

  it('does not connect without a token', () => {
    const h = harness(null);
    h.client.hold();
    assert.equal(h.sockets.length, 0);
    assert.equal(h.client.getState().status, 'refused');
  });

  it('closes shortly after the last hold is released, and not when a new hold arrives in time', () => {
    const h = harness();
    const release = h.client.hold();
    h.welcomeAndAuth();
    release();
    h.advance(500);
    const again = h.client.hold();
    h.advance(10_000);
    assert.equal(h.client.getState().status, 'connected');
    assert.equal(h.sockets.length, 1);
    again();
    h.advance(10_000);
    assert.equal(h.client.getState().status, 'idle');
    assert.ok(h.sockets[0]!.closedWith);
  });

  it('stop() closes at once and schedules nothing', () => {
    const h = harness();
    h.client.hold();
    h.welcomeAndAuth();
    h.client.stop();
    assert.equal(h.client.getState().status, 'idle');
    h.advance(60_000);
    assert.equal(h.sockets.length, 1);
  });
});
