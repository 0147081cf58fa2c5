import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FixSessionFigures } from '@fixdesk/protocol';
import {
  acceptText,
  bothWays,
  countsText,
  formatDuration,
  ownerLeaseText,
  ownerNodeText,
  queueText,
  sessionOwner,
  silenceText,
  tlsText,
} from './serviceColumns';

const figures = (over: Partial<FixSessionFigures> = {}): FixSessionFigures => ({
  loggedOn: true,
  inSchedule: true,
  expectation: 'logged-on',
  schedule: { startTime: '09:00:00', endTime: '17:00:00', tradingDays: 'M,T,W,T,F', timeZone: 'UTC' },
  secondsSinceInbound: 12,
  heartBtIntSec: 30,
  testRequests: { sent: 0, unanswered: 0 },
  resendRequests: { received: 0, receivedGap: 0, sent: 0, sentGap: 0, recent: [] },
  sessionRejects: { sent: {}, received: {} },
  businessRejects: { sent: {}, received: {} },
  refusedLogons: {},
  queueDepth: 0,
  tlsDaysLeft: null,
  orderToAccept: null,
  messages: { received: 0, sent: 0 },
  ...over,
});

describe('service status cells', () => {
  it('counts by reason, most frequent first', () => {
    assert.equal(countsText({}), '0');
    assert.equal(countsText({ '5': 1, '1': 3 }), '1×3, 5×1');
    assert.equal(bothWays({ sent: { '3': 2 }, received: {} }), 'out 3×2 · in 0');
  });
  it('silence against HeartBtInt, accept times, certificate days', () => {
    assert.equal(silenceText(figures()), '12s / 30s');
    assert.equal(silenceText(figures({ secondsSinceInbound: null })), '—');
    assert.equal(acceptText(figures({ orderToAccept: { count: 4, p50Ms: 850, worstMs: 65_000 } })), '850 ms / 1m 05s (4)');
    assert.equal(tlsText(figures({ tlsDaysLeft: 30 })), '30d');
    assert.equal(tlsText(figures({ tlsDaysLeft: -2 })), 'expired 2d ago');
    assert.equal(tlsText(figures()), '—');
    assert.equal(formatDuration(12_400), '12.4 s');
  });

  it("the queue: a client's outbox, a drop copy session's unsent copies and the oldest one's age", () => {
    assert.equal(queueText(figures({ queueDepth: 3 })), '3');
    assert.equal(queueText(figures({ dropCopy: { clients: [], depth: 0, lagSeconds: null } })), '0 copies');
    assert.equal(queueText(figures({ dropCopy: { clients: [], depth: 1, lagSeconds: 2 } })), '1 copy, oldest 2 s');
    assert.equal(queueText(figures({ dropCopy: { clients: ['SGX_CLIENT_1'], depth: 120, lagSeconds: 95 } })), '120 copies, oldest 1m 35s');
  });

  it("reads a session's owner from its lease: node, this node or not, term and expiry", () => {
    const owner = { node: 'node-a', term: 7, expiresAt: '2026-11-26T13:10:09.123Z', live: true };
    const here = sessionOwner({ containerName: 'node-a', metadata: { owner } })!;
    assert.deepEqual(here, { ...owner, thisNode: true });
    assert.equal(ownerNodeText(here), 'node-a (this node)');
    assert.equal(
      ownerLeaseText(here, (iso) => iso.slice(11, 19)),
      'term 7 · until 13:10:09',
    );
    const there = sessionOwner({ containerName: 'node-b', metadata: { owner: { ...owner, live: false } } })!;
    assert.equal(ownerNodeText(there), 'node-a');
    assert.equal(
      ownerLeaseText(there, (iso) => iso.slice(11, 19)),
      'term 7 · expired 13:10:09',
    );
    assert.equal(sessionOwner({ containerName: 'node-a', metadata: {} }), undefined);
  });
});
