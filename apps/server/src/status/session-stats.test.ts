import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rawField, rawMsgType, refusalCause, SessionStats } from './session-stats';

const msg = (fields: string) => `8=FIX.4.4\x019=99\x01${fields.replaceAll('|', '\x01')}|10=000\x01`.replaceAll('|', '\x01');

describe('session stats from the message log', () => {
  it('reads MsgType and fields from raw text', () => {
    const m = msg('35=AB|34=7|11=X|');
    assert.equal(rawMsgType(m), 'AB');
    assert.equal(rawField(m, 34), '7');
    assert.equal(rawField(m, 58), undefined);
  });

  it('sizes resend requests, open-ended ones by what was there', () => {
    const events: string[] = [];
    const s = new SessionStats((kind, compId, detail, amount) => events.push(`${kind}:${compId}:${detail ?? ''}:${amount ?? ''}`));
    s.outgoing('C', msg('35=8|34=20|'));
    // The client asks for 15 to the end: we had sent up to 20 → 6 messages.
    s.incoming('C', msg('35=2|34=3|7=15|16=0|'));
    // A message numbered 12 arrives when 9 was expected; we ask for 9 to the end → 9, 10, 11.
    s.incoming('C', msg('35=D|34=12|'));
    s.outgoing('C', msg('35=2|34=21|7=9|16=0|'));
    const c = s.of('C');
    assert.deepEqual([c.resendIn, c.resendInGap, c.resendOut, c.resendOutGap], [1, 6, 1, 3]);
    assert.equal(c.ordersIn, 1);
    assert.deepEqual(
      c.recentResends.map((r) => `${r.direction} ${r.begin}-${r.end ?? ''}`),
      ['out 9-', 'in 15-'],
    );
    assert.ok(events.includes('resend_in:C::6'));
  });

  it('test requests are answered by a heartbeat with their id, and forgotten with the connection', () => {
    const s = new SessionStats();
    s.outgoing('C', msg('35=1|34=4|112=T1|'));
    s.outgoing('C', msg('35=1|34=5|112=T2|'));
    s.incoming('C', msg('35=0|34=6|112=T1|'));
    assert.deepEqual([...s.of('C').pendingTestRequests], ['T2']);
    s.connectionChanged('C');
    assert.equal(s.of('C').pendingTestRequests.size, 0);
    assert.equal(s.of('C').testRequestsSent, 2);
  });

  it('refused logons by cause; a stranger gets no counters of its own', () => {
    const s = new SessionStats();
    s.refusedLogon('C', refusalCause('Logon outside of session time'));
    s.refusedLogon('', refusalCause('Unknown session: SenderCompID X / TargetCompID Y'));
    assert.deepEqual(s.of('C').refusedLogons, { 'outside-hours': 1 });
    assert.deepEqual(s.clients(), ['C']);
    assert.equal(refusalCause('Invalid username or password'), 'bad-credentials');
    assert.equal(refusalCause('Connection from 10.0.0.1 not allowed'), 'address-not-allowed');
    assert.equal(refusalCause('Session C is not active'), 'inactive');
    assert.equal(refusalCause('HeartBtInt (108) of 0 is outside the allowed range 5-120 seconds'), 'heartbeat-out-of-range');
    assert.equal(refusalCause('Session owned by node node-a (lease term 3 until 2026-01-01T00:00:03.000Z)'), 'owned-by-another-node');
    assert.equal(refusalCause('Session moving to node node-b (kept for it until 2026-01-01T00:00:30.000Z)'), 'moving-to-another-node');
  });
});
