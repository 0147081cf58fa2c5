import { z } from 'zod';

// Desk Insights (issue 31): one call per chart, `GET /api/insights/{chart}`, with the same filters as
// a query string. Every figure is computed by the database; the answers below are what each call
// returns. Times are instants (ISO 8601 UTC); periods are named in the requested time zone, so a day in
// Asia/Singapore runs from 16:00 UTC to 16:00 UTC.

export const INSIGHT_CHARTS = ['order-flow', 'time-to-answer', 'clients', 'contracts', 'fix-sessions'] as const;
export type InsightChart = (typeof INSIGHT_CHARTS)[number];

/** A range no longer than this (a year and a day) is answered; a longer one is refused. */
export const INSIGHTS_MAX_RANGE_DAYS = 367;
/** A range up to this long is drawn by hour (a day, with room for a daylight-saving day of 25 hours). */
export const INSIGHTS_HOURLY_MAX_MS = 25 * 3_600_000;
/** How many contracts the contracts chart names (the most lots first). */
export const INSIGHTS_TOP_CONTRACTS = 15;

/** Whether an IANA time zone name is known ('UTC', 'Asia/Singapore', 'Europe/London'). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const instant = (what: string) =>
  z
    .string({ error: 'is required' })
    .max(40)
    .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)), {
      message: `must be an instant with its offset (ISO 8601, e.g. 2026-11-29T16:00:00Z): the ${what} of the range`,
    })
    .transform((v) => new Date(v).toISOString());

/** One comp id or several: `client=A,B` or `client=A&client=B`. */
const clientList = z.preprocess(
  (v) =>
    (Array.isArray(v) ? v : [v])
      .flatMap((s) => (typeof s === 'string' ? s.split(',') : [s]))
      .map((s) => (typeof s === 'string' ? s.trim() : s))
      .filter((s) => s !== ''),
  z
    .array(z.string())
    .max(100, 'must name at most 100 clients')
    .refine(
      (ids) => ids.every((id) => /^[\x21-\x7e]{1,64}$/.test(id)),
      'must be comp IDs (up to 64 printable characters, no spaces), separated by commas',
    ),
);

/**
 * The filters every chart takes. `from` and `to` are instants (a named range, today, yesterday, the last
 * 7 or 30 days, is resolved by the client in its time zone): the range is [from, to). `tz` names the time
 * zone the periods are counted in (default UTC). `client` keeps the named clients' figures only;
 * `exchange` the orders on that exchange (the order's SecurityExchange, else its security's exchange).
 * `bucket` chooses the period of the time series: by hour up to 25 hours, else by day, unless named.
 */
export const InsightsQuerySchema = z
  .strictObject({
    from: instant('start'),
    to: instant('end'),
    tz: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone name such as UTC or Asia/Singapore').optional().default('UTC'),
    client: clientList.optional(),
    exchange: z
      .string()
      .trim()
      .min(1, 'must name an exchange')
      .max(40)
      .regex(/^[\x21-\x7e]+$/, 'must name an exchange (printable characters, no spaces)')
      .optional(),
    bucket: z.enum(['hour', 'day'], { error: 'must be hour or day' }).optional(),
  })
  .superRefine((q, ctx) => {
    const span = Date.parse(q.to) - Date.parse(q.from);
    if (!(span > 0)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after the start of the range' });
    else if (span > INSIGHTS_MAX_RANGE_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${INSIGHTS_MAX_RANGE_DAYS} days after the start` });
  })
  .transform((q) => ({
    from: q.from,
    to: q.to,
    tz: q.tz,
    clients: q.client && q.client.length > 0 ? [...new Set(q.client)] : undefined,
    exchange: q.exchange,
    bucket: q.bucket ?? (Date.parse(q.to) - Date.parse(q.from) <= INSIGHTS_HOURLY_MAX_MS ? ('hour' as const) : ('day' as const)),
  }));
export type InsightsQueryInput = z.input<typeof InsightsQuerySchema>;
export type InsightsFilters = z.output<typeof InsightsQuerySchema>;

/** The filters as applied, echoed in every answer. */
const AppliedFilters = z.object({
  from: z.string(),
  to: z.string(),
  tz: z.string(),
  clients: z.array(z.string()).nullable(),
  exchange: z.string().nullable(),
  bucket: z.enum(['hour', 'day']),
});

/** One period: its name in the time zone ('2026-11-29' by day, '2026-11-29T14:00' by hour) and its start. */
const Period = {
  period: z.string(),
  start: z.string(),
};

// ── 1. order flow ──

/**
 * Orders per period: received (every new order a client sent: taken into the book or refused at
 * intake), accepted and rejected by a broker (each order once, at its first answer), refused at intake,
 * and filled (fully, at the fill that completed it). A multileg order is one order.
 */
export const OrderFlowPointSchema = z.object({
  ...Period,
  received: z.number().int(),
  accepted: z.number().int(),
  refused: z.number().int(),
  rejected: z.number().int(),
  filled: z.number().int(),
});
export const OrderFlowAnswerSchema = z.object({
  chart: z.literal('order-flow'),
  filters: AppliedFilters,
  series: z.array(OrderFlowPointSchema),
});
export type OrderFlowPoint = z.infer<typeof OrderFlowPointSchema>;
export type OrderFlowAnswer = z.infer<typeof OrderFlowAnswerSchema>;

// ── 2. time to answer ──

/** Percentiles of a set of durations, in milliseconds (null when the set is empty). */
const Percentiles = {
  count: z.number().int(),
  p50Ms: z.number().nullable(),
  p90Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
};
export const AnswerTimesSchema = z.object(Percentiles);
export const AnswerTimesPointSchema = z.object({ ...Period, ...Percentiles });
export const AnswerTimesByUserSchema = z.object({ user: z.string(), ...Percentiles });
/**
 * One measure: over the range, per period (of the order's arrival) and per broker user who answered;
 * and how many of the orders received are still waiting for it (not answered, or accepted and not
 * filled, as of now), which the times cannot show.
 */
export const AnswerTimesMeasureSchema = z.object({
  overall: AnswerTimesSchema,
  waiting: z.number().int(),
  byPeriod: z.array(AnswerTimesPointSchema),
  byUser: z.array(AnswerTimesByUserSchema),
});
/**
 * The desk's service level, for the orders received in the range: `answer` from the order's arrival
 * to a broker's first accept or reject (by that broker); `firstFill` from its first accept to its first
 * fill (by the broker who filled).
 */
export const TimeToAnswerAnswerSchema = z.object({
  chart: z.literal('time-to-answer'),
  filters: AppliedFilters,
  answer: AnswerTimesMeasureSchema,
  firstFill: AnswerTimesMeasureSchema,
});
export type AnswerTimes = z.infer<typeof AnswerTimesSchema>;
export type AnswerTimesMeasure = z.infer<typeof AnswerTimesMeasureSchema>;
export type TimeToAnswerAnswer = z.infer<typeof TimeToAnswerAnswerSchema>;

// ── 3. clients ──

/** Why orders were refused (at intake) or rejected (by a broker): the OrdRejReason (103) and how many. */
export const InsightReasonCountSchema = z.object({
  source: z.enum(['refused', 'rejected']),
  reason: z.number().int(),
  count: z.number().int(),
});
/**
 * One trading client (drop copy connectors are left out): its orders received in the range, the fill
 * ratio of the ones taken into the book (filled quantity / ordered, null without any), refusals and
 * rejects in the range by reason, the lots it traded in the range and its share of the desk's lots
 * (every client's, whatever the client filter; on the exchange filtered).
 */
export const ClientInsightSchema = z.object({
  client: z.string(),
  clientName: z.string().nullable(),
  orders: z.number().int(),
  refused: z.number().int(),
  rejected: z.number().int(),
  orderedQty: z.string(),
  filledQty: z.string(),
  fillRatio: z.number().nullable(),
  reasons: z.array(InsightReasonCountSchema),
  lots: z.string(),
  volumeShare: z.number().nullable(),
});
export const ClientsAnswerSchema = z.object({
  chart: z.literal('clients'),
  filters: AppliedFilters,
  /** The desk's lots traded in the range (the share's denominator). */
  deskLots: z.string(),
  clients: z.array(ClientInsightSchema),
});
export type ClientInsight = z.infer<typeof ClientInsightSchema>;
export type ClientsAnswer = z.infer<typeof ClientsAnswerSchema>;

// ── 4. contracts ──

/**
 * Lots filled in the range per contract (symbol and maturity month); a spread's fills count on its legs'
 * own contracts (a fill at the spread's price gives each leg its ratio of the lots). Notional: lots ×
 * price × the security's contract size (1 when it has none), in its currency; fills whose price is not
 * known (a leg of a spread filled at the spread's price, the leg without a price) add lots only.
 */
export const ContractInsightSchema = z.object({
  symbol: z.string(),
  maturityMonthYear: z.string().nullable(),
  lots: z.string(),
  notional: z.string(),
  currency: z.string().nullable(),
  fills: z.number().int(),
});
export const ContractsAnswerSchema = z.object({
  chart: z.literal('contracts'),
  filters: AppliedFilters,
  /** The top 15 by lots (then by symbol and month). */
  contracts: z.array(ContractInsightSchema),
});
export type ContractInsight = z.infer<typeof ContractInsightSchema>;
export type ContractsAnswer = z.infer<typeof ContractsAnswerSchema>;

// ── 5. FIX sessions ──

/**
 * Per trading client and day (in the time zone; the exchange filter does not apply to sessions):
 * logons accepted and refused, disconnects (sessions that ended other than by a clean logout), and the
 * session-level Rejects (35=3) and ResendRequests (35=2) exchanged with it, either way.
 */
export const FixSessionsPointSchema = z.object({
  period: z.string(),
  start: z.string(),
  client: z.string(),
  logons: z.number().int(),
  refusedLogons: z.number().int(),
  disconnects: z.number().int(),
  sessionRejects: z.number().int(),
  resendRequests: z.number().int(),
});
export const FixSessionsAnswerSchema = z.object({
  chart: z.literal('fix-sessions'),
  filters: AppliedFilters,
  series: z.array(FixSessionsPointSchema),
});
export type FixSessionsPoint = z.infer<typeof FixSessionsPointSchema>;
export type FixSessionsAnswer = z.infer<typeof FixSessionsAnswerSchema>;

export type InsightAnswer = OrderFlowAnswer | TimeToAnswerAnswer | ClientsAnswer | ContractsAnswer | FixSessionsAnswer;
