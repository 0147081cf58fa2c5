import { INSIGHT_CHARTS } from '@fixdesk/protocol';
import { displayZone } from '../../components/time/displayZone';
import { sessionStore } from '../../services/api/http';
import { askEarly } from '../../services/insights/askInsight';
import { live } from '../../services/live/live';
import { FIRST_PRESET, rangeIsLive, resolveRange } from './insightsRange';

/** The live connection is held for the screen this long; the screen holds it itself once it runs. */
const HOLD_MS = 10_000;

/**
 * A page opened on /insights (app/screens' preloadScreenFor): the charts of the screen's first range,
 * all clients and exchanges, are asked for while the screen's code (the charting library's) downloads
 * and starts, and the screen takes the answers (useInsightChart). The live connection is opened first:
 * a range that includes now waits for it (askInsight), so the answers need not be asked again when it
 * comes up. Nothing is asked without a signed-in session.
 */
export function askFirstFigures(): void {
  if (!sessionStore.token()) return;
  const now = Date.now();
  const tz = displayZone();
  const range = resolveRange(FIRST_PRESET, tz, now);
  if ('error' in range) return;
  const query = { from: range.from, to: range.to, tz, clients: [], exchange: null };
  const includesNow = rangeIsLive(query, now);
  if (includesNow) setTimeout(live.hold(), HOLD_MS);
  for (const chart of INSIGHT_CHARTS) askEarly(chart, query, includesNow);
}
