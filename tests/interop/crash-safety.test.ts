// Crash safety as a client would see it: kill -9 of the server mid-burst, QuickFIX C++ as
// the client (tests/interop/crash-trial.ts runs a trial). Then every order the client saw acknowledged
// exists exactly once, every order the server holds has been answered, no order the client sent is
// lost, and sequence numbers carry on on both sides. Three trials per run (CRASH_TRIALS), killed after
// 10%, 30% and 50% of the answers (CRASH_KILL_AT=n: after n answers), the second with 500 more orders
// sent while the server is down (they come by resend), the third with a drop copy session of the
// client's reports logged on (QuickFIX too, validating each copy): after the restart it has a copy of
// every report the client got, and no copy of a report the server never made; CRASH_DEBUG=1 prints the recovery. How long the answers take is measured by the recovery benchmark (bench/recovery.ts).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildQuickfix, quickfixUnavailable, type QuickfixBuild } from '../../bench/quickfix/build';
import { runCrashTrial } from './crash-trial';
import { field } from './quickfix-peer';

const ORDERS = 2000;
const TRIALS = Number(process.env.CRASH_TRIALS ?? 3);
/**
 * A bound against stalls (the ones that took 26 s or never ended), not the 3 s target (that is the
 * benchmark's): the larger of 10 s and ten times what the answers before the kill took, this run's
 * own pace, so a machine shared with other work (on two cores beside another test suite, a sound
 * recovery took 15.5 s) is not taken for a stall. The recovery answers about three times as many
 * orders as the kill came after.
 */
const RECOVERY_BOUND_MS = 10_000;
const RECOVERY_BOUND_PACES = 10;

const unavailable = quickfixUnavailable();
if (unavailable && process.env.CI) throw new Error(`the crash-safety test cannot run in CI: ${unavailable}`);
const skip = unavailable ? `crash-safety test skipped: ${unavailable}` : false;

describe('kill -9 of the server mid-burst, QuickFIX client on PostgreSQL', { skip, timeout: 600_000 }, () => {
  let build: QuickfixBuild;
  before(() => {
    build = buildQuickfix(['fixpeer']);
  });

  for (let trial = 1; trial <= TRIALS; trial++) {
    test(`trial ${trial}: no acknowledged order lost or doubled, every held order answered, numbers carry on`, async () => {
      const killAt = Number(process.env.CRASH_KILL_AT ?? Math.floor((ORDERS * (2 * trial - 1)) / 10));
      // Trial 2 also sends orders while the server is down: they arrive by the resend exchange.
      const sendWhileDown = trial === 2 ? 500 : 0;
      // Trial 3 also has a drop copy session of the client's reports (docs/adr/0017).
      const dropCopy = trial === 3;
      const r = await runCrashTrial(build, {
        orders: ORDERS,
        killAt,
        prefix: `CR${trial}`,
        answerTimeoutMs: 60_000,
        sendWhileDown,
        dropCopy,
        bundled: true,
      });
      assert.ok(
        r.answeredWithinMs !== undefined,
        `only ${r.answered.size} of ${r.ids.length} orders answered within 60 s of the new logon`,
      );
      assert.ok(r.ackedBeforeCrash.size < ORDERS, `the kill came after the burst (${r.ackedBeforeCrash.size} answers): not mid-burst`);

      const doubled = [...r.stored].filter(([, n]) => n !== 1).map(([id]) => id);
      assert.deepEqual(doubled, [], 'orders stored more than once');
      const lostAcked = [...r.ackedBeforeCrash].filter((id) => !r.stored.has(id));
      assert.deepEqual(lostAcked, [], 'acknowledged before the crash but not stored');
      const lost = r.ids.filter((id) => !r.stored.has(id));
      assert.deepEqual(lost, [], 'sent by the client but not stored');
      const unanswered = [...r.stored.keys()].filter((id) => !r.answered.has(id));
      assert.deepEqual(unanswered, [], 'held by the server but never answered');
      // What was answered is right (above); now whether it came without a stall.
      const bound = Math.max(RECOVERY_BOUND_MS, RECOVERY_BOUND_PACES * r.beforeCrashMs);
      assert.ok(
        r.answeredWithinMs <= bound,
        `every order answered ${r.answeredWithinMs} ms after the new logon; bound ${bound} ms (${r.ackedBeforeCrash.size} answers took ${r.beforeCrashMs} ms before the kill)`,
      );

      // Numbers carried on: the client's new Logon asked for no reset, and the server's first message
      // after the restart is numbered after the last one before it.
      const after = r.linesAfterCrash;
      const ourLogon = after.find((l) => l.startsWith('TX ') && field(l.slice(3), 35) === 'A');
      assert.ok(ourLogon, 'the client sent a Logon after the restart');
      assert.notEqual(field(ourLogon.slice(3), 141), 'Y', 'the client logged on without a reset');
      const theirLogon = after.find((l) => l.startsWith('RX ') && field(l.slice(3), 35) === 'A');
      assert.ok(theirLogon, 'the server answered the Logon');
      assert.ok(Number(field(theirLogon.slice(3), 34)) > r.lastServerSeqBefore, 'the server numbered on from before the crash');
      assert.ok(!after.some((l) => l.startsWith('EVENT') && /already logged on/i.test(l)), 'no "already logged on" refusal');

      if (dropCopy) {
        const d = r.dropCopy!;
        assert.ok(
          d.allCopied,
          `copies of ${[...d.clientExecIds].filter((id) => !d.copies.has(id)).length} reports the client got never came`,
        );
        const neverMade = [...d.copies.keys()].filter((id) => !d.storedExecIds.has(id));
        assert.deepEqual(neverMade, [], 'copies of reports the server never made');
        const all = [...d.copies.values()].flat();
        assert.ok(
          all.every((c) => c.copyMsgIndicator === 'Y' && c.clientParty),
          'every copy says so (797=Y) and names the client first',
        );
        // A copy sent before the kill whose mark was lost goes again at the next logon, flagged PossResend.
        const unflagged = [...d.copies].filter(([, list]) => list.slice(1).some((c) => !c.possResend)).map(([id]) => id);
        assert.deepEqual(unflagged, [], 'a copy received twice without PossResend');
        assert.deepEqual(d.sessionRejects, [], 'QuickFIX rejected no copy');
        console.log(
          `# trial ${trial}: ${d.clientExecIds.size} reports at the client, ${d.copies.size} copied (${all.length} copies, ${all.filter((c) => c.possResend).length} flagged PossResend)`,
        );
      }
      console.log(
        `# trial ${trial}: killed after ${r.ackedBeforeCrash.size} answers (${r.storedAtCrash} orders stored); ${sendWhileDown ? `${sendWhileDown} sent while down; ` : ''}all ${r.ids.length} answered ${r.answeredWithinMs} ms after the new logon (${r.beforeCrashMs} ms to the kill)`,
      );
    });
  }
});
