import type { InsightChart } from '@fixdesk/protocol';
import { live } from '../live/live';
import { connectedSession, whenLiveSettles } from '../live/liveSession';
import { insightsApi } from './http';
import type { InsightAnswers, InsightsQuery } from './insightsApi';

/** A chart's figures and the live session they were asked under (connectedSession). */
export interface Asked<C extends InsightChart> {
  answer: InsightAnswers[C];
  session: number | null;
}

/** How long a question about a range that includes now waits for the live connection to come up. */
export const LIVE_WAIT_MS = 1000;
/** An answer asked for early (askEarly) and not taken within this long is asked again. */
const EARLY_KEEP_MS = 10_000;

/**
 * One chart's figures. For a range that includes now, the question first waits for the live
 * connection (whenLiveSettles, at most LIVE_WAIT_MS): asked under a connected session, the screen
 * need not ask again when that session's first message comes.
 */
export async function askInsight<C extends InsightChart>(
  chart: C,
  query: InsightsQuery,
  includesNow: boolean,
  signal?: AbortSignal,
): Promise<Asked<C>> {
  if (includesNow) await whenLiveSettles(live, LIVE_WAIT_MS);
  signal?.throwIfAborted();
  const session = connectedSession(live.getState());
  return { answer: await insightsApi.chart(chart, query, signal), session };
}

/** The filters as one string: a new query object with the same filters is the same question. */
export function queryKey(q: InsightsQuery): string {
  return JSON.stringify([q.from, q.to, q.tz, [...q.clients].sort(), q.exchange]);
}

const early = new Map<string, { at: number; asked: Promise<Asked<InsightChart>> }>();

/**
 * Asks before the screen's code has loaded (app/screens' preloadScreenFor on opening /insights): the
 * figures travel while the charting code downloads and starts. The screen takes the answer once; the
 * same question asked early again meanwhile is not asked twice.
 */
export function askEarly(chart: InsightChart, query: InsightsQuery, includesNow: boolean): void {
  const waiting = early.get(`${chart} ${queryKey(query)}`);
  if (waiting && Date.now() - waiting.at <= EARLY_KEEP_MS) return;
  const asked = askInsight(chart, query, includesNow);
  // Not taken, or failed: the screen asks itself (takeEarly); nothing to report here.
  asked.catch(() => undefined);
  early.set(`${chart} ${queryKey(query)}`, { at: Date.now(), asked });
}

/** The early answer to exactly this question, once; undefined when none was asked or it is old. */
export function takeEarly<C extends InsightChart>(chart: C, query: InsightsQuery): Promise<Asked<C>> | undefined {
  const key = `${chart} ${queryKey(query)}`;
  const e = early.get(key);
  early.delete(key);
  return e && Date.now() - e.at <= EARLY_KEEP_MS ? (e.asked as Promise<Asked<C>>) : undefined;
}
