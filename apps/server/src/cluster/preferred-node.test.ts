import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preferredNode } from './preferred-node';

const sessions = Array.from({ length: 3_000 }, (_, i) => `fix:FIX.4.4:FIXDESK:CLIENT_${i}`);
const placement = (nodes: string[]) => new Map(sessions.map((s) => [s, preferredNode(s, nodes)!]));

describe('preferredNode (rendezvous hashing)', () => {
  it('is the same answer whatever the order the nodes are listed in, and none without nodes', () => {
    const nodes = ['node-a', 'node-b', 'node-c', 'fixdesk-1:9876'];
    for (const s of sessions.slice(0, 200)) {
      const p = preferredNode(s, nodes);
      assert.ok(p && nodes.includes(p));
      assert.equal(preferredNode(s, [...nodes].reverse()), p);
      assert.equal(preferredNode(s, new Set([nodes[2]!, nodes[0]!, nodes[3]!, nodes[1]!])), p);
    }
    assert.equal(preferredNode(sessions[0]!, []), undefined);
    assert.equal(preferredNode(sessions[0]!, ['only']), 'only');
  });

  it('spreads sessions evenly over the nodes', () => {
    const nodes = ['node-a', 'node-b', 'node-c'];
    const counts = new Map<string, number>();
    for (const n of placement(nodes).values()) counts.set(n, (counts.get(n) ?? 0) + 1);
    for (const n of nodes) {
      const share = (counts.get(n) ?? 0) / sessions.length;
      assert.ok(share > 0.28 && share < 0.39, `${n} got ${(share * 100).toFixed(1)}% of the sessions`);
    }
  });

  it('a node joining takes only sessions for itself (about 1/N), and leaving gives back only its own', () => {
    const before = placement(['node-a', 'node-b']);
    const after = placement(['node-a', 'node-b', 'node-c']);
    let moved = 0;
    for (const [s, p] of after) {
      if (p === before.get(s)) continue;
      moved++;
      // Nothing moves between the nodes that were there.
      assert.equal(p, 'node-c', `${s} moved from ${before.get(s)} to ${p}`);
    }
    assert.ok(moved > sessions.length * 0.28 && moved < sessions.length * 0.39, `${moved} of ${sessions.length} moved`);
    // node-c leaving again: exactly its sessions go back where they were.
    assert.deepEqual(placement(['node-a', 'node-b']), before);
  });
});
