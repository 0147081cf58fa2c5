import type { FastifyRequest } from 'fastify';

/** Who made a change, as reference_changes records it. */
export function actor(req: FastifyRequest): { changedBy: string; userRef: number | null } {
  return { changedBy: req.user?.username ?? 'unknown', userRef: req.user?.user_id ?? null };
}
