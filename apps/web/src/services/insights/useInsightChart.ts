import type { InsightChart } from '@fixdesk/protocol';
import { useEffect, useState } from 'react';
import { askInsight, queryKey, takeEarly } from './askInsight';
import type { InsightAnswers, InsightsQuery } from './insightsApi';

/**
 * One chart's figures for the filters: the answer stays on screen while a newer one loads (a live
 * refresh or changed filters: no flicker, no layout jump); `current` says whether it answers the
 * filters now chosen. A failure is reported with the last answer kept.
 */
export interface InsightChartState<C extends InsightChart> {
  answer: InsightAnswers[C] | null;
  /** The live session the answer was asked under (connectedSession); undefined before the first answer. */
  askedUnder: number | null | undefined;
  /** The answer is for the filters now chosen (not an older choice still shown while the new one loads). */
  current: boolean;
  loading: boolean;
  error: string | null;
  retry: () => void;
}

/**
 * `includesNow`: the range includes the present, so the question waits for the live connection first
 * (askInsight). The first question for the filters takes the answer asked for early (askEarly) if any.
 */
export function useInsightChart<C extends InsightChart>(
  chart: C,
  query: InsightsQuery | null,
  includesNow: boolean,
  refresh: number,
): InsightChartState<C> {
  const [state, setState] = useState<{
    answer: InsightAnswers[C] | null;
    askedUnder: number | null | undefined;
    key: string | null;
    loading: boolean;
    error: string | null;
  }>({ answer: null, askedUnder: undefined, key: null, loading: query !== null, error: null });
  const [retries, setRetries] = useState(0);
  const key = query ? queryKey(query) : null;

  useEffect(() => {
    if (!query || !key) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    const ask = () => askInsight(chart, query, includesNow, controller.signal);
    const early = refresh === 0 && retries === 0 ? takeEarly(chart, query) : undefined;
    // An early question that failed is asked again here: its error is this screen's to show.
    (early ? early.catch(ask) : ask())
      .then(({ answer, session }) => {
        if (!controller.signal.aborted) setState({ answer, askedUnder: session, key, loading: false, error: null });
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setState((s) => ({ ...s, loading: false, error: err instanceof Error ? err.message : String(err) }));
      });
    return () => controller.abort();
    // The query is read through its key: a new object with the same filters is not a new question.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chart, key, refresh, retries]);

  return {
    answer: state.answer,
    askedUnder: state.askedUnder,
    current: state.key !== null && state.key === key,
    loading: state.loading,
    error: state.error,
    retry: () => setRetries((n) => n + 1),
  };
}
