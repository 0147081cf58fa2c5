// Runs a session test script (test/definitions/*.def) against the conformance acceptor over TCP.
//
//   # comment
//   iCONNECT                     open a client connection (ISLD is the acceptor, the client is TW)
//   iDISCONNECT                  the client closes its socket
//   I8=FIX.4.4|35=A|34=1|...     client sends; 9 and 10 are computed; <TIME>, <TIME-5> from the engine clock
//   R8=FIX.4.4|9=<LEN>|...       client sends these bytes as written (<LEN>, <SUM> filled in if present)
//   E8=FIX.4.4|35=A|34=1|...     the next message from the engine must match (header any order, body in order)
//   eDISCONNECT                  the engine must close the connection (after no further message)
//   eNOTHING                     nothing arrives within 150 ms
//   ADVANCE 30                   the engine clock moves 30 s (timers fire)
//   APP D:ORD1 F:CXL1            the application has received exactly these (MsgType:ClOrdID), in order
//   SECOND_LOGON_REFUSED         a second connection logs on as TW and must be disconnected, nothing sent
//   CRASH                        the acceptor dies like kill -9 and restarts over the same store
//   SETSEQ sender=5 target=9     operator sets the session's next numbers
//   SEQ sender=5 target=9        the session's next numbers are these
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { AcceptorHarness, assertMessage, expand, frame, rawFrame, show, TestClient, TW } from './harness';
import { until } from '../../../tests/support/until';

const EXPECT_TIMEOUT_MS = 3000;

/** Waits up to `timeoutMs` for `ok` once the engine is settled; the assertion after it says what was not met. */
async function eventually(h: AcceptorHarness, ok: () => boolean, timeoutMs = 1000): Promise<void> {
  await until(
    'the expected state',
    async () => {
      await h.settle();
      return ok();
    },
    timeoutMs,
    10,
  ).catch(() => undefined);
}

export async function runScript(path: string, harness?: AcceptorHarness): Promise<void> {
  const lines = readFileSync(path, 'utf8').split('\n');
  const h = harness ?? new AcceptorHarness();
  if (!harness) await h.start();
  let client: TestClient | undefined;
  try {
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!.trim();
      if (!line || line.startsWith('#')) continue;
      const where = `${path.split('/').pop()}:${n + 1}`;
      const [word, ...args] = line.split(/\s+/);
      if (line === 'iCONNECT') {
        client = await TestClient.open(h.port);
      } else if (line === 'iDISCONNECT') {
        client?.close();
        await h.settle();
      } else if (line.startsWith('I8=')) {
        assert.ok(client, `${where}: not connected`);
        client.send(frame(expand(line.slice(1), h.clock)));
      } else if (line.startsWith('R8=')) {
        assert.ok(client, `${where}: not connected`);
        client.send(rawFrame(expand(line.slice(1), h.clock)));
      } else if (line.startsWith('E8=')) {
        assert.ok(client, `${where}: not connected`);
        const got = await client.next(EXPECT_TIMEOUT_MS);
        assert.ok(
          got !== undefined,
          `${where}: expected ${line.slice(1)} but ${client.closed ? 'the connection closed' : 'nothing arrived'}`,
        );
        assertMessage(got, expand(line.slice(1), h.clock), where);
      } else if (line === 'eDISCONNECT') {
        assert.ok(client, `${where}: not connected`);
        const got = await client.next(EXPECT_TIMEOUT_MS);
        assert.equal(got, undefined, `${where}: expected a disconnect, received ${got && show(got)}`);
        assert.ok(client.closed, `${where}: expected a disconnect, the connection is still open`);
        await h.settle();
      } else if (line === 'eNOTHING') {
        assert.ok(client, `${where}: not connected`);
        await h.settle();
        await new Promise((r) => setTimeout(r, 150));
        assert.equal(client.pending(), 0, `${where}: expected nothing, received ${client.pending()} message(s)`);
        assert.ok(!client.closed, `${where}: expected nothing, the connection closed`);
      } else if (word === 'ADVANCE') {
        h.clock.advance(Number(args[0]) * 1000);
        await h.settle();
      } else if (word === 'APP') {
        // Bytes just sent may still be in flight: poll until the expectation holds or time runs out.
        const got = () => h.delivered.map((d) => `${d.msgType}:${d.clOrdID ?? ''}`);
        await eventually(h, () => JSON.stringify(got()) === JSON.stringify(args));
        assert.deepEqual(got(), args, `${where}: application deliveries`);
      } else if (word === 'SECOND_LOGON_REFUSED') {
        const other = await TestClient.open(h.port);
        other.send(frame(expand('8=FIX.4.4|35=A|34=1|49=TW|52=<TIME>|56=ISLD|98=0|108=30', h.clock)));
        const got = await other.next(EXPECT_TIMEOUT_MS);
        assert.equal(got, undefined, `${where}: the second Logon must get nothing, received ${got && show(got)}`);
        assert.ok(other.closed, `${where}: second connection not closed`);
      } else if (word === 'CRASH') {
        await h.crashAndRestart();
        client = undefined;
      } else if (word === 'SETSEQ' || word === 'SEQ') {
        const want = Object.fromEntries(args.map((a) => a.split('=') as [string, string]));
        await h.settle();
        if (word === 'SETSEQ') {
          if (want.sender) await h.acceptor.setNextSenderMsgSeqNum(TW, Number(want.sender));
          if (want.target) await h.acceptor.setNextTargetMsgSeqNum(TW, Number(want.target));
        } else {
          await eventually(h, () => {
            const st = h.acceptor.session(TW)?.status();
            return (
              !!st &&
              (!want.sender || st.nextSenderMsgSeqNum === Number(want.sender)) &&
              (!want.target || st.nextTargetMsgSeqNum === Number(want.target))
            );
          });
          const s = h.acceptor.session(TW)?.status();
          assert.ok(s, `${where}: no session`);
          if (want.sender) assert.equal(s.nextSenderMsgSeqNum, Number(want.sender), `${where}: next sender`);
          if (want.target) assert.equal(s.nextTargetMsgSeqNum, Number(want.target), `${where}: next target`);
        }
      } else {
        throw new Error(`${where}: unknown script line "${line}"`);
      }
    }
  } catch (err) {
    const events = h.logs.lines
      .filter((l) => l.kind === 'event')
      .slice(-15)
      .map((l) => `  ${l.session} ${l.text}`);
    if (err instanceof Error) err.message += `\nlast engine events:\n${events.join('\n')}`;
    throw err;
  } finally {
    client?.close();
    if (!harness) await h.stop();
  }
}
