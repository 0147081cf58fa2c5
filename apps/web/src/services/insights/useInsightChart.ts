import type { InsightChart } from '@fixdesk/protocol';
import { useEffect, useState } from 'react';
import { insightsApi } from './http';
import type { InsightAnswers, InsightsQuery } from './insightsApi';

/**
 * One chart's figures for the filters: the answer stays on screen while a newer one loads (a live
 * refresh or changed filters: no flicker, no layout jump); `current` says whether it answers the
 * filters now chosen. A failure is reported with the last answer kept.
 */
export interface InsightChartState<C extends InsightChart> {
  answer: InsightAnswers[C] | null;
  /** The answer is for the filters now chosen (not an older choice still shown while the new one loads). */
  current: boolean;
  loading: boolean;
  error: string | null;
  retry: () => void;
}

export function queryKey(q: InsightsQuery): string {
  return JSON.stringify([q.from, q.to, q.tz, [...q.clients].sort(), q.exchange]);
}

export function useInsightChart<C extends InsightChart>(chart: C, query: InsightsQuery | null, refresh: number): InsightChartState<C> {
  const [state, setState] = useState<{ answer: InsightAnswers[C] | null; key: string | null; loading: boolean; error: string | null }>({
    answer: null,
    key: null,
    loading: query !== null,
    error: null,
  });
  const [retries, setRetries] = useState(0);
  const key = query ? queryKey(query) : null;

  useEffect(() => {
    if (!query || !key) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    insightsApi
      .chart(chart, query, controller.signal)
      .then((answer) => setState({ answer, key, loading: false, error: null }))
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
    current: state.key !== null && state.key === key,
    loading: state.loading,
    error: state.error,
    retry: () => setRetries((n) => n + 1),
  };
}
