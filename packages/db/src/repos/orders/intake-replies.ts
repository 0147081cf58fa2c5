import type { Queryable } from '../../db';
import {
  persistReservedOutbound,
  persistReservedOutboundAtomically,
  RESERVED_PARAMS,
  type ReservedOutbound,
} from '../../fix-message-store';
import { plannedIntakeCtes, type PlannedIntake } from '../intake-plan';
import { intakeReportsCtes } from './intake-batch';
import type { ExecReportRow } from './rows';

// An intake batch and the replies reserved for it on the clients' sessions, committed together: the
// orders (or their Pending New reports) and the reply messages in one statement (docs/adr/0007,
// docs/adr/0009). How the statement is put together (the FIX store's part, then the intake's CTEs
// numbered after its parameters) stays in here.

/**
 * A planned batch and its reserved replies in one self-committing statement. `sentSeqNums` gives, per
 * outcome of the plan, the MsgSeqNum its reply was reserved under (null: none). Answers the commit time.
 */
export function storePlannedIntakeWithReplies(
  db: Queryable,
  plan: PlannedIntake,
  sentSeqNums: ReadonlyArray<number | null>,
  replies: readonly ReservedOutbound[],
): Promise<Date> {
  return persistReservedOutboundAtomically(db, replies, plannedIntakeCtes(plan, sentSeqNums, RESERVED_PARAMS + 1));
}

/**
 * Inside the batch's transaction (its orders stored with their reports deferred): the Pending New
 * reports, each with the number its reply was reserved under, and the reserved replies. Answers the
 * stored reports' ids and times by ExecID.
 */
export async function storeIntakeReportsWithReplies(
  tx: Queryable,
  reports: ReadonlyArray<{ er: ExecReportRow; sentSeqNum: number | null }>,
  replies: readonly ReservedOutbound[],
): Promise<Array<{ id: number; execid: string; created_at: Date }>> {
  const ctes = reports.length ? intakeReportsCtes(reports, RESERVED_PARAMS + 1) : undefined;
  return persistReservedOutbound<{ id: number; execid: string; created_at: Date }>(
    tx,
    replies,
    ctes && { name: 'intake_reports', ctes: ctes.ctes, params: ctes.params, returnsRows: true },
  );
}
