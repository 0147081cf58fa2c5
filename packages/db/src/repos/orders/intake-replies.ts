import type { Queryable } from '../../db';
import {
  persistReservedOutbound,
  persistReservedOutboundAtomically,
  RESERVED_PARAMS,
  type ReservedOutbound,
} from '../../fix-message-store';
import { refusalCopiesCte, refusalCopiesParam, type RefusalToCopy } from '../drop-copies';
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
 * reports, each with the number its reply was reserved under, the reserved replies, and the copies of
 * the duplicate ClOrdIDs the batch refused (`refusals`: their ExecIDs were drawn by the batch's first
 * statement; the CTE is there only when there are some). Answers the stored reports' ids and times by
 * ExecID.
 */
export async function storeIntakeReportsWithReplies(
  tx: Queryable,
  reports: ReadonlyArray<{ er: ExecReportRow; sentSeqNum: number | null }>,
  replies: readonly ReservedOutbound[],
  refusals: readonly RefusalToCopy[] = [],
): Promise<Array<{ id: number; execid: string; created_at: Date }>> {
  const ctes = reports.length ? intakeReportsCtes(reports, RESERVED_PARAMS + 1) : undefined;
  const copies = refusals.length
    ? { ctes: refusalCopiesCte(RESERVED_PARAMS + 1 + (ctes?.params.length ?? 0)), param: refusalCopiesParam(refusals) }
    : undefined;
  const extra =
    ctes || copies
      ? {
          name: `intake_${ctes ? 'reports' : ''}${copies ? '_refusals' : ''}`,
          ctes: [ctes?.ctes, copies?.ctes].filter(Boolean).join(',\n'),
          params: [...(ctes?.params ?? []), ...(copies ? [copies.param] : [])],
          returnsRows: ctes !== undefined,
        }
      : undefined;
  return persistReservedOutbound<{ id: number; execid: string; created_at: Date }>(tx, replies, extra);
}
