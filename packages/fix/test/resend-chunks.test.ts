// A ResendRequest wider than resendChunkSize is answered chunk by chunk from the store: every stored
// application message replayed in order (PossDupFlag=Y, OrigSendingTime), admin messages gap-filled,
// the GapFills coalesced across chunk boundaries, and no sequence number moved.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcceptorHarness, assertMessage, expand, frame, show, TestClient, TW } from './harness';

const CHUNK = 2;

describe(`resend in chunks (resendChunkSize ${CHUNK})`, () => {
  it('replays 7 messages across 4 chunks in order, with GapFills across chunk edges', async () => {
    const h = new AcceptorHarness({ resendChunkSize: CHUNK });
    await h.start();
    const client = await TestClient.open(h.port);
    try {
      const send = (line: string) => client.send(frame(expand(line, h.clock)));
      const expectNext = async (line: string, where: string) => {
        const got = await client.next(3000);
        assert.ok(got, `${where}: nothing arrived`);
        assertMessage(got, expand(line, h.clock), where);
      };
      send('8=FIX.4.4|35=A|34=1|49=TW|52=<TIME>|56=ISLD|98=0|108=30');
      await expectNext('8=FIX.4.4|35=A|34=1|49=ISLD|52=<TIME>|56=TW|98=0|108=30', 'logon');
      // Ours: 1 Logon, 2-3 echoes, 4 Heartbeat, 5 echo, 6-7 Heartbeats, 8 echo.
      const order = (seq: number, id: string) =>
        `8=FIX.4.4|35=D|34=${seq}|49=TW|52=<TIME>|56=ISLD|11=${id}|21=1|38=10|40=1|54=1|55=C5TC|60=<TIME>`;
      const echo = (seq: number, id: string, resend = '') =>
        `8=FIX.4.4|35=D|34=${seq}|49=ISLD|52=<TIME>|56=TW${resend}|11=${id}|21=1|38=10|40=1|54=1|55=C5TC|60=${resend ? '<TIME-1>' : '<TIME>'}`;
      const script: Array<[string, string]> = [
        [order(2, 'A'), echo(2, 'A')],
        [order(3, 'B'), echo(3, 'B')],
        ['8=FIX.4.4|35=1|34=4|49=TW|52=<TIME>|56=ISLD|112=T1', '8=FIX.4.4|35=0|34=4|49=ISLD|52=<TIME>|56=TW|112=T1'],
        [order(5, 'C'), echo(5, 'C')],
        ['8=FIX.4.4|35=1|34=6|49=TW|52=<TIME>|56=ISLD|112=T2', '8=FIX.4.4|35=0|34=6|49=ISLD|52=<TIME>|56=TW|112=T2'],
        ['8=FIX.4.4|35=1|34=7|49=TW|52=<TIME>|56=ISLD|112=T3', '8=FIX.4.4|35=0|34=7|49=ISLD|52=<TIME>|56=TW|112=T3'],
        [order(8, 'D'), echo(8, 'D')],
      ];
      for (const [i, [inbound, answer]] of script.entries()) {
        send(inbound);
        await expectNext(answer, `step ${i}`);
      }
      h.clock.advance(1000);
      send('8=FIX.4.4|35=2|34=9|49=TW|52=<TIME>|56=ISLD|7=1|16=0');
      const pd = '|43=Y|122=<TIME-1>';
      const gapFill = (seq: number, next: number) => `8=FIX.4.4|35=4|34=${seq}|43=Y|49=ISLD|52=<TIME>|56=TW|122=<TIME>|36=${next}|123=Y`;
      const expected = [
        gapFill(1, 2),
        echo(2, 'A', pd),
        echo(3, 'B', pd),
        gapFill(4, 5),
        echo(5, 'C', pd),
        gapFill(6, 8),
        echo(8, 'D', pd),
      ];
      for (const [i, line] of expected.entries()) await expectNext(line, `resend ${i}`);
      await h.settle();
      assert.equal(client.pending(), 0, 'nothing else');
      const status = h.acceptor.session(TW)!.status();
      assert.deepEqual([status.nextSenderMsgSeqNum, status.nextTargetMsgSeqNum], [9, 10], 'the resend moved no number');
      const resending = h.logs.lines.filter((l) => l.kind === 'event' && /resending 1-8/.test(l.text));
      assert.equal(resending.length, 1, `one resend: ${resending.map((l) => show(l.text)).join(', ')}`);
    } finally {
      client.close();
      await h.stop();
    }
  });
});
