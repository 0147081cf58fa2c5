import '../../components/grid/desk-grid.css';
import { INSIGHTS_HOURLY_MAX_MS, isTradingClient, type ClientConnector, type InsightChart } from '@fixdesk/protocol';
import { Badge, Box, Group, MultiSelect, Select, SimpleGrid, Text, TextInput, Tooltip } from '@mantine/core';
import { IconChartHistogram, IconCircleFilled } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { PageHeader } from '../../components/layout/PageHeader';
import { useDisplayZone } from '../../components/time/displayZone';
import { timeZoneLabel } from '../../components/time/localTime';
import { ZoneSwitch } from '../../components/time/ZoneSwitch';
import { insightsApi } from '../../services/insights/http';
import type { InsightsQuery } from '../../services/insights/insightsApi';
import { useInsightChart, type InsightChartState } from '../../services/insights/useInsightChart';
import { askedBehind, connectedSession } from '../../services/live/liveSession';
import { useLiveHold, useLiveMessages, useLiveSelect } from '../../services/live/useLive';
import { clientsView } from './charts/clients';
import { contractsView } from './charts/contracts';
import { fixSessionsView } from './charts/fixSessions';
import { orderFlowView } from './charts/orderFlow';
import { timeToAnswerView } from './charts/timeToAnswer';
import { InsightPanel, type PanelLoad } from './InsightPanel';
import { dayIn, FIRST_PRESET, periodsOf, rangeIsLive, RANGE_PRESETS, resolveRange, type RangePreset } from './insightsRange';

/** Live figures are read again at most this often while orders arrive (issue 31: every few seconds). */
export const LIVE_REFRESH_MS = 3_000;
/** The chart areas' fixed heights: figures that change never move the page. */
const CHART_HEIGHT = 210;
const WIDE_CHART_HEIGHT = 170;

/** Every period of the range an answer covers (its filters as applied, echoed back): the chart's axis. */
const axisOf = (f: { from: string; to: string; tz: string; bucket: 'hour' | 'day' }, bucket = f.bucket) => periodsOf(f, f.tz, bucket);

const panelLoad = (s: InsightChartState<InsightChart>): PanelLoad => ({
  loading: s.loading,
  current: s.current,
  error: s.error,
  retry: s.retry,
});

/** Today in the zone, checked every minute: at midnight the named ranges move on by themselves. */
function useToday(timeZone: string): string {
  const [today, setToday] = useState(() => dayIn(Date.now(), timeZone));
  useEffect(() => {
    setToday(dayIn(Date.now(), timeZone));
    const timer = window.setInterval(() => setToday(dayIn(Date.now(), timeZone)), 60_000);
    return () => window.clearInterval(timer);
  }, [timeZone]);
  return today;
}

/**
 * Refreshes while the range includes now: a live order, report, action or session change asks for new
 * figures, at most once per LIVE_REFRESH_MS (the first at once, the rest gathered into one). So does a
 * figure asked under another live session than the one now connected (connectedSession): asked before
 * the connection came up, or before a reconnection or the server's resync, it may miss a change no
 * message will announce. Figures asked once the connection was up (askInsight waits for it) are not
 * asked again when it comes up.
 */
function useLiveRefresh(live: boolean, askedUnder: ReadonlyArray<number | null | undefined>): number {
  const [tick, setTick] = useState(0);
  const last = useRef(0);
  const timer = useRef<number | null>(null);
  const liveRef = useRef(live);
  liveRef.current = live;
  const request = () => {
    if (!liveRef.current || timer.current !== null) return;
    const wait = Math.max(0, last.current + LIVE_REFRESH_MS - Date.now());
    timer.current = window.setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      setTick((n) => n + 1);
    }, wait);
  };
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  useLiveHold();
  useLiveMessages('new_order', request);
  useLiveMessages('order_update', request);
  useLiveMessages('order_action', request);
  useLiveMessages('client_connection_status', request);
  const session = useLiveSelect(connectedSession);
  const behind = askedBehind(session, askedUnder);
  useEffect(() => {
    if (behind) request();
  }, [behind, session]);
  return tick;
}

/**
 * /insights (issue 31 "Desk Insights"): how the desk serves its clients, in charts, for every signed-in
 * role (read-only). A date range in the zone the desk shows times in (the blotter's UTC/Local choice),
 * a client and an exchange filter, and five charts, each one call (`GET /api/insights/{chart}`).
 */
export default function InsightsPage() {
  const timeZone = useDisplayZone();
  const today = useToday(timeZone);
  const [preset, setPreset] = useState<RangePreset>(FIRST_PRESET);
  const [custom, setCustom] = useState({ firstDay: today, lastDay: today });
  const [clients, setClients] = useState<string[]>([]);
  const [exchange, setExchange] = useState<string | null>(null);
  const [connectors, setConnectors] = useState<ClientConnector[]>([]);
  const [exchanges, setExchanges] = useState<string[]>([]);

  // The filters' choices are asked for once the charts' first figures are in: they are not needed
  // before, and on the embedded database (one connection) they would queue ahead of the figures.
  const [listsWanted, setListsWanted] = useState(false);
  useEffect(() => {
    if (!listsWanted) return;
    const controller = new AbortController();
    insightsApi
      .clients(controller.signal)
      .then((list) => setConnectors(list.filter(isTradingClient)))
      .catch(() => undefined);
    insightsApi
      .securities(controller.signal)
      .then((list) => setExchanges([...new Set(list.map((s) => s.exchange).filter((e): e is string => !!e))].sort()))
      .catch(() => undefined);
    return () => controller.abort();
  }, [listsWanted]);

  // `today` is a dependency so the named ranges follow the date.
  const range = useMemo(() => resolveRange(preset, timeZone, Date.now(), custom), [preset, timeZone, custom, today]); // eslint-disable-line react-hooks/exhaustive-deps
  const query: InsightsQuery | null = useMemo(
    () => ('error' in range ? null : { from: range.from, to: range.to, tz: timeZone, clients, exchange }),
    [range, timeZone, clients, exchange],
  );
  const live = query !== null && rangeIsLive(query, Date.now());
  // The charts' answers report the live session they were asked under; the refresh hook reads them.
  const [askedUnder, setAskedUnder] = useState<ReadonlyArray<number | null | undefined>>([]);
  const refresh = useLiveRefresh(live, askedUnder);

  const flow = useInsightChart('order-flow', query, live, refresh);
  const times = useInsightChart('time-to-answer', query, live, refresh);
  const perClient = useInsightChart('clients', query, live, refresh);
  const contracts = useInsightChart('contracts', query, live, refresh);
  const sessions = useInsightChart('fix-sessions', query, live, refresh);
  const charts = [flow, times, perClient, contracts, sessions];
  const asked = charts.map((c) => c.askedUnder);
  const askedText = asked.join();
  useEffect(() => setAskedUnder(asked), [askedText]); // eslint-disable-line react-hooks/exhaustive-deps
  const firstFiguresIn = charts.every((c) => c.answer !== null || c.error !== null);
  useEffect(() => {
    if (firstFiguresIn || query === null) setListsWanted(true);
  }, [firstFiguresIn, query]);

  const flowView = useMemo(() => (flow.answer ? orderFlowView(flow.answer, axisOf(flow.answer.filters)) : null), [flow.answer]);
  const timesView = useMemo(() => (times.answer ? timeToAnswerView(times.answer, axisOf(times.answer.filters)) : null), [times.answer]);
  const clientsV = useMemo(() => (perClient.answer ? clientsView(perClient.answer) : null), [perClient.answer]);
  const contractsV = useMemo(() => (contracts.answer ? contractsView(contracts.answer) : null), [contracts.answer]);
  const sessionsView = useMemo(
    () => (sessions.answer ? fixSessionsView(sessions.answer, axisOf(sessions.answer.filters, 'day')) : null),
    [sessions.answer],
  );
  const bucket = query && Date.parse(query.to) - Date.parse(query.from) <= INSIGHTS_HOURLY_MAX_MS ? 'hour' : 'day';

  const span = 'error' in range ? '' : range.firstDay === range.lastDay ? range.firstDay : `${range.firstDay} to ${range.lastDay}`;
  const filterText = [clients.length ? clients.join(', ') : 'all clients', exchange ?? 'all exchanges'].join(' · ');
  const rangeText = `${span} (${timeZoneLabel(timeZone)}) · ${filterText}`;
  const fileBase = (chart: string) => `insights_${chart}_${'error' in range ? 'range' : `${range.firstDay}_to_${range.lastDay}`}`;
  const common = { rangeText };

  return (
    <Box px="md" py="sm" data-testid="insights-page">
      <PageHeader
        compact
        icon={IconChartHistogram}
        title="Insights"
        count={
          live ? (
            <Tooltip label={`Today's figures follow new orders, at most every ${LIVE_REFRESH_MS / 1000} s`} openDelay={200}>
              <Badge size="sm" variant="light" color="green" leftSection={<IconCircleFilled size={7} />} data-testid="insights-live">
                Live
              </Badge>
            </Tooltip>
          ) : undefined
        }
        actions={<ZoneSwitch />}
      />
      <Group gap="xs" mb={8} wrap="wrap" align="flex-end" data-testid="insights-filters" role="search" aria-label="Insights filters">
        <Select
          size="xs"
          w={140}
          label="Range"
          data={RANGE_PRESETS.map((p) => ({ value: p.value, label: p.label }))}
          value={preset}
          allowDeselect={false}
          onChange={(v) => v && setPreset(v as RangePreset)}
          data-testid="insights-range"
        />
        {preset === 'custom' && (
          <>
            <TextInput
              size="xs"
              type="date"
              w={140}
              label="First day"
              value={custom.firstDay}
              max={custom.lastDay}
              onChange={(e) => {
                const firstDay = e.currentTarget.value;
                setCustom((c) => ({ ...c, firstDay }));
              }}
              data-testid="insights-first-day"
            />
            <TextInput
              size="xs"
              type="date"
              w={140}
              label="Last day"
              value={custom.lastDay}
              min={custom.firstDay}
              onChange={(e) => {
                const lastDay = e.currentTarget.value;
                setCustom((c) => ({ ...c, lastDay }));
              }}
              data-testid="insights-last-day"
            />
          </>
        )}
        <MultiSelect
          size="xs"
          w={300}
          label="Clients"
          placeholder={clients.length ? undefined : 'All clients'}
          data={connectors.map((c) => ({ value: c.comp_id, label: c.client_name ? `${c.client_name} (${c.comp_id})` : c.comp_id }))}
          value={clients}
          onChange={setClients}
          searchable
          clearable
          maxValues={100}
          data-testid="insights-clients"
        />
        <Select
          size="xs"
          w={150}
          label="Exchange"
          placeholder="All exchanges"
          data={exchanges}
          value={exchange}
          onChange={setExchange}
          clearable
          data-testid="insights-exchange"
        />
        <Text fz="xs" c={'error' in range ? 'red' : 'dimmed'} pb={6} data-testid="insights-range-text">
          {'error' in range ? range.error : `${span}, ${bucket === 'hour' ? 'by hour' : 'by day'}, ${timeZoneLabel(timeZone)}`}
        </Text>
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing={8} verticalSpacing={8}>
        <InsightPanel
          id="order-flow"
          title="Order flow"
          description="Orders received, answered and filled; a multileg order counts once"
          view={flowView}
          load={panelLoad(flow)}
          height={CHART_HEIGHT}
          fileBase={fileBase('order-flow')}
          {...common}
        />
        <InsightPanel
          id="time-to-answer"
          title="Time to answer"
          description="Received → accepted or rejected, and accepted → first fill"
          view={timesView}
          load={panelLoad(times)}
          height={CHART_HEIGHT}
          fileBase={fileBase('time-to-answer')}
          {...common}
        />
        <InsightPanel
          id="clients"
          title="Clients"
          description="Orders, fill ratio, refusals and rejects by reason, share of the desk's lots"
          view={clientsV}
          legendRows={2}
          load={panelLoad(perClient)}
          height={CHART_HEIGHT}
          fileBase={fileBase('clients')}
          {...common}
        />
        <InsightPanel
          id="contracts"
          title="Contracts"
          description="Top 15 by lots filled; spreads on their legs' contracts"
          view={contractsV}
          legendRows={2}
          load={panelLoad(contracts)}
          height={CHART_HEIGHT}
          fileBase={fileBase('contracts')}
          {...common}
        />
      </SimpleGrid>
      <Box mt={8}>
        <InsightPanel
          id="fix-sessions"
          title="FIX sessions"
          description="Per client per day (the exchange filter does not apply to sessions)"
          view={sessionsView}
          load={panelLoad(sessions)}
          height={WIDE_CHART_HEIGHT}
          fileBase={fileBase('fix-sessions')}
          {...common}
        />
      </Box>
    </Box>
  );
}
