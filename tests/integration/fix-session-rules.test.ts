// The product's acceptor runs the same session code as the conformance acceptor: the session rules of
// QuickFIX's acceptance suite hold on the server's own FIX port, with its stored sequence numbers
// (no reset on logon), against a configured client connector. Scripts in the suite's format
// (packages/fix/test/quickfix-at.ts), played over TCP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_DB_KINDS } from '@fixdesk/db/testing';
import { playScenario } from '../../packages/fix/test/quickfix-at';
import { startTestServer, type TestServer } from '../support/server';

// The patterns of QuickFIX's fields.fmt (varying values), kept here so this test needs no shared folder.
const PATTERNS = new Map<number, RegExp>([
  [10, /\d{3}/],
  [52, /\d{8}-\d{2}:\d{2}:\d{2}/],
  [122, /\d{8}-\d{2}:\d{2}:\d{2}/],
]);

const C = '49=SGX_CLIENT_1\x0152=<TIME>\x0156=FIXDESK';
const S = '49=FIXDESK\x0152=00000000-00:00:00.000\x0156=SGX_CLIENT_1';
const script = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replaceAll('|', '\x01');

for (const kind of TEST_DB_KINDS) {
  describe(`session rules on the product's FIX acceptor on ${kind}`, () => {
    let t: TestServer;
    before(async () => {
      t = await startTestServer(kind);
    });
    after(async () => {
      await t?.stop();
    });
    const play = (text: string) =>
      playScenario(script(text), PATTERNS, { host: '127.0.0.1', port: t.server.ctx.fix.port, expectTimeoutMs: 5000 });

    it('a second Logon during a live session is disconnected with nothing sent; the live session carries on', () =>
      play(`
        i1,CONNECT
        I1,8=FIX.4.4|35=A|34=1|${C}|98=0|108=30|
        E1,8=FIX.4.4|35=A|34=1|${S}|98=0|108=30|
        i2,CONNECT
        I2,8=FIX.4.4|35=A|34=1|${C}|98=0|108=30|
        e2,DISCONNECT
        I1,8=FIX.4.4|35=1|34=2|${C}|112=STILL|
        E1,8=FIX.4.4|35=0|34=2|${S}|112=STILL|
        I1,8=FIX.4.4|35=5|34=3|${C}|
        E1,8=FIX.4.4|35=5|34=3|${S}|
        e1,DISCONNECT
      `));

    it('SequenceReset-Reset ignores MsgSeqNum and may only move forward', () =>
      play(`
        iCONNECT
        I8=FIX.4.4|35=A|34=4|${C}|98=0|108=30|
        E8=FIX.4.4|35=A|34=4|${S}|98=0|108=30|
        I8=FIX.4.4|35=4|34=0|${C}|36=20|
        I8=FIX.4.4|35=1|34=20|${C}|112=AFTER-RESET|
        E8=FIX.4.4|35=0|34=5|${S}|112=AFTER-RESET|
        I8=FIX.4.4|35=4|34=0|${C}|36=7|123=N|
        E8=FIX.4.4|35=3|34=6|${S}|45=0|58=Value is incorrect (out of range) for this tag|372=4|373=5|
        I8=FIX.4.4|35=1|34=21|${C}|112=STILL-21|
        E8=FIX.4.4|35=0|34=7|${S}|112=STILL-21|
        I8=FIX.4.4|35=5|34=22|${C}|
        E8=FIX.4.4|35=5|34=8|${S}|
        eDISCONNECT
      `));

    it('a ResendRequest over admin messages only is answered with one GapFill, whatever its own number', () =>
      play(`
        iCONNECT
        I8=FIX.4.4|35=A|34=23|${C}|98=0|108=30|
        E8=FIX.4.4|35=A|34=9|${S}|98=0|108=30|
        I8=FIX.4.4|35=1|34=24|${C}|112=T1|
        E8=FIX.4.4|35=0|34=10|${S}|112=T1|
        I8=FIX.4.4|35=2|34=25|${C}|7=9|16=0|
        E8=FIX.4.4|35=4|34=9|43=Y|${S}|122=00000000-00:00:00|36=11|123=Y|
        I8=FIX.4.4|35=2|34=25|${C}|7=9|16=10|
        E8=FIX.4.4|35=4|34=9|43=Y|${S}|122=00000000-00:00:00|36=11|123=Y|
        I8=FIX.4.4|35=5|34=26|${C}|
        E8=FIX.4.4|35=5|34=11|${S}|
        eDISCONNECT
      `));

    it('a NUL byte in a field gets a session Reject (no order), the message is kept for the audit, the session carries on', async () => {
      await play(`
        iCONNECT
        I8=FIX.4.4|35=A|34=27|${C}|98=0|108=30|
        E8=FIX.4.4|35=A|34=12|${S}|98=0|108=30|
        I8=FIX.4.4|35=D|34=28|${C}|11=NUL-1|21=1|38=10|40=1|54=1|55=C5TC|58=a\x00b|60=<TIME>|
        E8=FIX.4.4|35=3|34=13|${S}|45=28|58=Incorrect data format for value|371=58|372=D|373=6|
        I8=FIX.4.4|35=1|34=29|${C}|112=AFTER|
        E8=FIX.4.4|35=0|34=14|${S}|112=AFTER|
        I8=FIX.4.4|35=5|34=30|${C}|
        E8=FIX.4.4|35=5|34=15|${S}|
        eDISCONNECT
      `);
      // The refused message is in the audit, its NUL kept visible as U+FFFD.
      const { rows } = await t.database.db.query<{ raw_fix: string }>(
        `SELECT raw_fix FROM fix_messages WHERE direction = 'RX' AND msg_seq_num = 28`,
      );
      assert.equal(rows.length, 1);
      assert.ok(rows[0]!.raw_fix.includes('58=a\uFFFDb\x01'));
    });

    it('an order without Symbol (55, required in Instrument) gets Reject 373=1 371=55, as at QuickFIX/J: no order, no refusal, the session carries on', async () => {
      await play(`
        iCONNECT
        I8=FIX.4.4|35=A|34=31|${C}|98=0|108=30|
        E8=FIX.4.4|35=A|34=16|${S}|98=0|108=30|
        I8=FIX.4.4|35=D|34=32|${C}|11=NOSYM-1|21=1|38=10|40=1|54=1|60=<TIME>|
        E8=FIX.4.4|35=3|34=17|${S}|45=32|58=Required tag missing|371=55|372=D|373=1|
        I8=FIX.4.4|35=1|34=33|${C}|112=AFTER|
        E8=FIX.4.4|35=0|34=18|${S}|112=AFTER|
        I8=FIX.4.4|35=5|34=34|${C}|
        E8=FIX.4.4|35=5|34=19|${S}|
        eDISCONNECT
      `);
      const count = async (table: string) =>
        (await t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE clordid = 'NOSYM-1'`)).rows[0]!.n;
      assert.equal(await count('orders'), 0);
      assert.equal(await count('refused_orders'), 0);
    });
  });
}
