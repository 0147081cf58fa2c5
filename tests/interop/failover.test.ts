// Failover between two nodes (docs/adr/0012): two server processes on one PostgreSQL, a
// QuickFIX C++ client whose settings list both acceptors (SocketConnectHost/Port and
// SocketConnectHost1/Port1); tests/interop/failover-cluster.ts runs them. The node owning the client's
// session is killed with SIGKILL mid-burst, 20 times (FAILOVER_TRIALS) on the same pair of nodes and
// the same client (the killed node is started again once the session has moved, so the nodes are
// killed in turn). In every trial the other node owns the session after the kill, the client
// logs on there with its stored numbers (no reset), every order the client got an answer for exists
// exactly once, every order it sent is stored and answered, nothing is filled. The trials together are
// bounded in time (FAILOVER_BUDGET_MS); the last line reports the worst and every takeover. And a
// paused owner (SIGSTOP past its lease, SIGCONT after the other node took over) stores nothing.
//
// How fast the takeover is (within 5 s of the kill) is a speed target: bench/cluster.ts measures it on
// a quiet machine. Here a takeover must happen (within TAKEOVER_BOUND_MS, a bound only a broken lease
// or a client sent away for good would pass), on a machine that may be running other suites beside this one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildQuickfix, quickfixUnavailable, type QuickfixBuild } from '../../bench/quickfix/build';
import { FailoverCluster, failoverViolations, FAILOVER_CLIENT, orderLine } from './failover-cluster';
import { until } from '../support/until';
import { field } from './quickfix-peer';

const TRIALS = Number(process.env.FAILOVER_TRIALS ?? 20);
/**
 * Per trial: sent in chunks of CHUNK every 50 ms (about 950 ms in all), the owner killed at the 40th
 * answer, so about 800 ms of the burst are still to come when the test sees that answer: the kill
 * falls mid-burst unless the test process takes longer than that to act on it. With chunks of 20 the
 * rest of the burst lasted 400 ms, and a CI run's test process, sharing two cores with another test
 * file, once took longer ("the kill came after the burst").
 */
const ORDERS = 200;
const CHUNK = 10;
const KILL_AFTER = 40;
/**
 * The nodes' lease TTL (LEASE_TTL_MS; production's default is 3 s, which bench/cluster.ts times): a
 * takeover waits for the dead owner's lease to run out, every trial once. Renewed every third of it
 * (500 ms), it stays held through stalls of a second on a loaded machine, and a lease that did run out
 * unseen moves only when the client logs on elsewhere, which it does not while its session is open.
 */
const LEASE_TTL_MS = 1_500;
/** The lease's TTL, the client's reconnect, its Logon at the other node, with room for a loaded machine. */
const TAKEOVER_BOUND_MS = 15_000;
/**
 * All trials together: each takes ~4 s on 2 cores (the lease running out, the answers, the killed
 * node's restart), and up to ~45 s when another suite shares the cores.
 */
const BUDGET_MS = Number(process.env.FAILOVER_BUDGET_MS ?? 60_000 + TRIALS * 45_000);
/** One trial: three waits of at most 30 s (the kill point, the takeover, the answers). */
const TRIAL_TIMEOUT_MS = 120_000;

const unavailable = quickfixUnavailable();
if (unavailable && process.env.CI) throw new Error(`the failover test cannot run in CI: ${unavailable}`);
const skip = unavailable ? `failover test skipped: ${unavailable}` : false;

describe(
  'kill -9 of the node owning a session mid-burst, QuickFIX client listing both nodes',
  { skip, timeout: BUDGET_MS + 240_000 },
  () => {
    let build: QuickfixBuild;
    before(() => {
      build = buildQuickfix(['fixpeer']);
    });

    describe(`${TRIALS} trials on one pair of nodes and one client`, { skip: TRIALS < 1 }, () => {
      let cluster: FailoverCluster | undefined;
      let deadline = 0;
      let broken: string | undefined;
      const takeovers: number[] = [];
      before(async () => {
        cluster = await FailoverCluster.start(build, {
          clientLifetimeMs: BUDGET_MS + TRIAL_TIMEOUT_MS + 60_000,
          leaseTtlMs: LEASE_TTL_MS,
          bundled: true,
        });
        deadline = Date.now() + BUDGET_MS;
      });
      after(() => cluster?.close());

      for (let trial = 1; trial <= TRIALS; trial++) {
        test(
          `trial ${trial}: the other node owns the session; no answered order lost or doubled, numbers carry on`,
          { timeout: TRIAL_TIMEOUT_MS },
          async (t) => {
            if (broken) return t.skip(`trial ${broken} left the nodes or the client in an unknown state`);
            assert.ok(Date.now() < deadline, `the trials' time bound (${BUDGET_MS / 1000} s) ran out after ${takeovers.length} trial(s)`);
            let r;
            try {
              r = await cluster!.trial({ prefix: `FO${trial}`, orders: ORDERS, killAfter: KILL_AFTER, chunk: CHUNK, timeoutMs: 30_000 });
            } catch (err) {
              broken = String(trial);
              throw err;
            }
            takeovers.push(r.takeoverMs);
            assert.deepEqual(failoverViolations(r), []);
            assert.ok(
              r.takeoverMs <= TAKEOVER_BOUND_MS,
              `${r.newOwner} owned the session ${r.takeoverMs} ms after the kill of ${r.killed}`,
            );
            console.log(
              `# trial ${trial}: ${r.killed} killed after ${r.ackedBeforeKill.size} answers; ${r.newOwner} owned the session ${r.takeoverMs} ms after the kill; all ${r.ids.length} answered, each stored once`,
            );
          },
        );
      }

      test('worst takeover over the trials', () => {
        console.log(`# takeover over ${takeovers.length} trial(s): worst ${Math.max(...takeovers)} ms, all ${takeovers.join(', ')} ms`);
        assert.equal(takeovers.length, TRIALS, 'every trial ran');
      });
    });

    test('a paused owner (SIGSTOP past its lease) writes nothing after the other node took over', async () => {
      // At info, node A's log shows its session's writes refused after it wakes.
      const cluster = await FailoverCluster.start(build, {
        logLevel: 'info',
        clientLifetimeMs: 120_000,
        leaseTtlMs: LEASE_TTL_MS,
        bundled: true,
      });
      try {
        const { check, client: qf } = cluster;
        const nodeA = cluster.node('node-a');
        const answered = () => cluster.answered().size;
        assert.equal(await cluster.owner(), 'node-a');
        qf.script(['P-1', 'P-2', 'P-3'].map(orderLine).join('\n'));
        await until('answers on node A', () => answered() === 3);

        // Node A stops (a long GC pause, a frozen VM) with the client's session open. The client hears
        // nothing, gives up on it (heartbeat timeout), and comes to node B once node A's lease ran out.
        nodeA.process.child.kill('SIGSTOP');
        const linesAtPause = qf.lines.length;
        await qf.waitForLine((l) => l.startsWith('LOGON'), 60_000, linesAtPause);
        assert.equal(await cluster.owner(), 'node-b');
        qf.script(['P-4', 'P-5'].map(orderLine).join('\n'));
        await until('answers on node B', () => answered() === 5);

        // Node A wakes up still believing it serves the session: it finds its term taken over, drops
        // the session, and none of its writes land (they would reuse numbers node B has used).
        nodeA.process.child.kill('SIGCONT');
        await until('node A noticing it lost its leases', () => /lease taken over by another node|fenced out/.test(nodeA.process.output()));
        qf.script(['P-6'].map(orderLine).join('\n'));
        await until('an answer on node B after node A woke', () => answered() === 6);
        const reused = await check.query<{ msg_seq_num: number; n: number }>(
          `SELECT m.msg_seq_num, count(*)::int AS n FROM fix_messages m JOIN fix_session_state s USING (begin_string, sender_comp_id, target_comp_id)
          WHERE m.target_comp_id = $1 AND m.direction = 'TX' AND NOT m.poss_dup AND m.store_epoch = s.store_epoch
          GROUP BY m.msg_seq_num HAVING count(*) > 1`,
          [FAILOVER_CLIENT],
        );
        assert.deepEqual(reused.rows, [], 'an outbound number stored twice');
        const fenced = nodeA.process
          .output()
          .split('\n')
          .filter((l) => l.includes('fenced out')).length;
        // Whether node A tried to write at all depends on what it ran first on waking (a heartbeat tick, or the closed socket).
        console.log(`# node A woke: ${fenced} log line(s) of its session's writes refused by the fence; no number stored twice`);
        const state = await check.query<{ owner_node: string; next_target_seq: number }>(
          'SELECT owner_node, next_target_seq FROM fix_session_state WHERE target_comp_id = $1',
          [FAILOVER_CLIENT],
        );
        assert.equal(state.rows[0]!.owner_node, 'node-b');
        const clientNext = Math.max(...qf.messages('TX').map((m) => Number(field(m, 34)))) + 1;
        await until(
          'the last inbound number stored by node B',
          async () =>
            (
              await check.query<{ n: number }>('SELECT next_target_seq AS n FROM fix_session_state WHERE target_comp_id = $1', [
                FAILOVER_CLIENT,
              ])
            ).rows[0]!.n === clientNext,
          5_000,
        );
      } finally {
        await cluster.close();
      }
    });
  },
);
