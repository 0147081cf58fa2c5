import { createHash } from 'node:crypto';

/**
 * The node a lease (a client's FIX session) belongs on among `nodeIds`: rendezvous hashing (highest
 * random weight). Each node's weight for the lease is a hash of the pair; the heaviest wins. Every
 * node computes the same answer from the same set, and when a node joins or leaves only the leases it
 * wins or held change hands (about 1/N of them), so a node that returns takes back its share and no
 * other session moves. Undefined for no nodes.
 */
export function preferredNode(lease: string, nodeIds: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestWeight = -1n;
  for (const node of nodeIds) {
    const w = weight(node, lease);
    if (w > bestWeight || (w === bestWeight && best !== undefined && node < best)) {
      best = node;
      bestWeight = w;
    }
  }
  return best;
}

/** The first 64 bits of SHA-256 over the node id and the lease name (a separator keeps pairs distinct). */
function weight(node: string, lease: string): bigint {
  return createHash('sha256').update(node).update('\0').update(lease).digest().readBigUInt64BE(0);
}
