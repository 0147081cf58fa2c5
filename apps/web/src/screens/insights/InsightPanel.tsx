import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconAlertCircle, IconChartBar, IconDownload, IconInbox, IconPhoto, IconRefresh, IconTable } from '@tabler/icons-react';
import { useCallback, useRef, useState } from 'react';
import { downloadCsv, toCsvText } from '../../components/export/csv';
import { useChunk } from '../../components/lazy/useChunk';
import type { ChartView } from './charts/chartParts';
import { downloadChartPng } from './download';
import { EChart } from './EChart';
import type { ECharts } from './echarts';
import classes from './Insights.module.css';

/** Where a panel's figures stand: the first load, a failure (with the last figures kept), or drawn. */
export interface PanelLoad {
  loading: boolean;
  /** The figures shown answer the filters now chosen. */
  current: boolean;
  error: string | null;
  retry: () => void;
}

/**
 * One chart of the Insights screen in its frame: title, the totals, a legend whose entries toggle their
 * series (buttons: a keyboard reaches them), the chart or the same figures as a table (AG Grid, loaded on
 * first use), CSV and
 * PNG downloads. The drawing area has a fixed height whatever the state, so nothing below it moves.
 */
export function InsightPanel<R>({
  id,
  title,
  description,
  view,
  load,
  height,
  fileBase,
  rangeText,
  legendRows = 1,
}: {
  id: string;
  title: string;
  description: string;
  view: ChartView<R> | null;
  load: PanelLoad;
  height: number;
  /** insights_order-flow_2026-11-24_to_2026-11-30 */
  fileBase: string;
  /** The range and filters in words, written on the PNG. */
  rangeText: string;
  /** Lines kept for the legend (fixed, so the chart does not move when series come and go). */
  legendRows?: 1 | 2;
}) {
  const [mode, setMode] = useState<'chart' | 'table'>('chart');
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const chart = useRef<ECharts | null>(null);
  const onReady = useCallback((c: ECharts | null) => void (chart.current = c), []);
  const toggle = (name: string) =>
    setHidden((h) => {
      const next = new Set(h);
      if (!next.delete(name)) next.add(name);
      return next;
    });

  const stale = load.loading && !load.current;
  const totals = (view?.summary ?? []).map((f) => `${f.label} ${f.value}`).join(', ');
  const ariaLabel = `${title} chart: ${description}. ${view?.empty ? 'Nothing in this range.' : `Totals: ${totals}.`} The Table view lists every figure.`;
  const failed = load.error !== null && (!load.current || view === null);
  const testId = `insight-${id}`;

  return (
    <Paper
      withBorder
      radius="sm"
      p={8}
      className={classes.panel}
      data-testid={testId}
      aria-labelledby={`${testId}-title`}
      component="section"
    >
      <Group justify="space-between" wrap="nowrap" gap={6} h={26}>
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <Text id={`${testId}-title`} fw={600} fz="sm" component="h2" m={0} style={{ whiteSpace: 'nowrap' }}>
            {title}
          </Text>
          <Text fz={11} c="dimmed" truncate>
            {description}
          </Text>
          <Box w={14} style={{ flexShrink: 0 }} aria-live="polite">
            {load.loading && <Loader size={10} data-testid={`${testId}-loading`} aria-label={`Updating ${title}`} />}
          </Box>
        </Group>
        <Group gap={4} wrap="nowrap">
          <SegmentedControl
            size="xs"
            value={mode}
            onChange={(v) => setMode(v as 'chart' | 'table')}
            aria-label={`Show ${title} as`}
            data-testid={`${testId}-mode`}
            data={[
              {
                value: 'chart',
                label: (
                  <Group gap={3} wrap="nowrap">
                    <IconChartBar size={12} aria-hidden="true" />
                    Chart
                  </Group>
                ),
              },
              {
                value: 'table',
                label: (
                  <Group gap={3} wrap="nowrap">
                    <IconTable size={12} aria-hidden="true" />
                    Table
                  </Group>
                ),
              },
            ]}
            styles={{ label: { fontSize: 11, paddingBlock: 1, paddingInline: 8 } }}
          />
          <Tooltip label="Download the figures as CSV" openDelay={300}>
            <ActionIcon
              variant="default"
              size="sm"
              aria-label={`Download ${title} as CSV`}
              disabled={!view}
              onClick={() => view && downloadCsv(`${fileBase}.csv`, toCsvText(view.columns, view.rows))}
              data-testid={`${testId}-csv`}
            >
              <IconDownload size={14} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Download the chart as PNG" openDelay={300}>
            <ActionIcon
              variant="default"
              size="sm"
              aria-label={`Download ${title} as PNG`}
              disabled={!view}
              onClick={() => chart.current && downloadChartPng(chart.current, `${fileBase}.png`, title, rangeText)}
              data-testid={`${testId}-png`}
            >
              <IconPhoto size={14} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>

      <Group gap={14} h={34} wrap="nowrap" className={classes.summary} data-testid={`${testId}-summary`}>
        {(view?.summary ?? []).map((f) => (
          <Stack key={f.id} gap={0} style={{ flexShrink: 0 }}>
            <Text fz={10} c="dimmed" tt="uppercase" style={{ letterSpacing: 0.3, whiteSpace: 'nowrap' }}>
              {f.label}
            </Text>
            <Text
              fz={14}
              fw={600}
              className={classes.figure}
              style={f.colour ? { color: f.colour } : undefined}
              data-testid={`${testId}-total-${f.id}`}
            >
              {f.value}
            </Text>
          </Stack>
        ))}
      </Group>

      <Group
        gap={4}
        h={legendRows * 22}
        wrap={legendRows > 1 ? 'wrap' : 'nowrap'}
        align="flex-start"
        style={{ rowGap: 0 }}
        className={classes.legend}
        role="group"
        aria-label={`${title} series`}
        data-testid={`${testId}-legend`}
      >
        {(view?.legend ?? []).map((s) => {
          const on = !hidden.has(s.name);
          return (
            <UnstyledButton
              key={s.name}
              className={classes.legendItem}
              aria-pressed={on}
              onClick={() => toggle(s.name)}
              title={on ? `Hide ${s.name}` : `Show ${s.name}`}
              data-testid={`${testId}-legend-item`}
            >
              <span className={classes.swatch} style={{ background: on ? s.colour : 'transparent', borderColor: s.colour }} />
              <span style={{ opacity: on ? 1 : 0.5, textDecoration: on ? undefined : 'line-through' }}>{s.name}</span>
            </UnstyledButton>
          );
        })}
      </Group>

      <Box className={classes.body} style={{ height }}>
        {view && (
          <Box className={classes.layer} style={{ opacity: stale ? 0.45 : 1 }} aria-hidden={mode === 'table'}>
            <EChart option={view.option} hidden={hidden} height={height} label={ariaLabel} onReady={onReady} testId={`${testId}-chart`} />
          </Box>
        )}
        {view && mode === 'table' && (
          <Box className={`${classes.layer} ${classes.table}`} data-testid={`${testId}-table`}>
            <LazyTable view={view} title={title} />
          </Box>
        )}
        {!view && !failed && (
          <Center className={classes.layer}>
            <Loader size="sm" aria-label={`Loading ${title}`} />
          </Center>
        )}
        {view && view.empty && mode === 'chart' && !stale && !failed && (
          <Center className={classes.layer} style={{ background: 'rgba(255,255,255,0.85)' }} data-testid={`${testId}-empty`}>
            <Stack align="center" gap={4}>
              <IconInbox size={24} stroke={1.4} color="var(--mantine-color-gray-5)" aria-hidden="true" />
              <Text fz="sm" fw={600}>
                Nothing in this range
              </Text>
              <Text fz="xs" c="dimmed">
                No figures for the dates and filters chosen.
              </Text>
            </Stack>
          </Center>
        )}
        {failed && (
          <Center className={classes.layer} style={{ background: '#fff' }}>
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={16} />}
              title={`Error loading ${title}`}
              data-testid={`${testId}-error`}
              maw={420}
            >
              <Stack gap={6} align="flex-start">
                <Text fz="xs">{load.error}</Text>
                <Button size="compact-xs" color="red" variant="outline" leftSection={<IconRefresh size={12} />} onClick={load.retry}>
                  Retry
                </Button>
              </Stack>
            </Alert>
          </Center>
        )}
      </Box>
      <Text fz={10} c="red" h={14} data-testid={`${testId}-update-error`}>
        {load.error !== null && !failed ? `Update failed, showing the last figures: ${load.error}` : ''}
      </Text>
    </Paper>
  );
}

const loadInsightTable = () => import('./InsightTable');

/** The table view, its chunk loaded the first time a table is shown (then kept by the module system). */
function LazyTable<R>({ view, title }: { view: ChartView<R>; title: string }) {
  const chunk = useChunk(loadInsightTable);
  if (chunk.status === 'ready') return <chunk.module.default view={view as ChartView<unknown>} />;
  if (chunk.status === 'error')
    return (
      <Center h="100%">
        <Text fz="xs" c="red">
          The table could not load ({chunk.error}). Reload the page to try again.
        </Text>
      </Center>
    );
  return (
    <Center h="100%">
      <Loader size="sm" aria-label={`Loading the ${title} table`} />
    </Center>
  );
}
