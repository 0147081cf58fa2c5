import {
  axesContracts,
  axesCounters,
  deriveAxes,
  filterAxes,
  formatMaturity,
  formatPrice,
  formatRowAge,
  ordStatusLabel,
  type AxesContract,
  type AxesRow,
} from '@fixdesk/domain';
import type { ClientConnector } from '@fixdesk/protocol';
import { Group, SegmentedControl, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ColDef, GridApi, ICellRendererParams } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLiveConnection } from '../../services/live/useLive';
import { fetchOrderSnapshot } from '../../services/orders/snapshot';
import { useClientConnectors } from '../../services/orders/useDeskReference';
import { useBookView, useOrderBookFeed, useOrderBookInstance } from '../../services/orders/useOrderBook';
import { deskGridTheme } from '../../components/grid/gridTheme';
import classes from './Axes.module.css';

const EXCHANGES = ['Any', 'SGX', 'EEX'] as const;
/** Row ages are redrawn this often. */
const AGE_TICK_MS = 5_000;

const buyersTheme = deskGridTheme.withParams({
  backgroundColor: '#f4fbf5',
  oddRowBackgroundColor: '#ebf7ed',
  headerBackgroundColor: '#e3f4e6',
});
const sellersTheme = deskGridTheme.withParams({
  backgroundColor: '#fdf5f5',
  oddRowBackgroundColor: '#fbecec',
  headerBackgroundColor: '#f8e1e1',
});

interface Company {
  name: string | null;
  logo: string | null;
}

/** The sender company's logo (hidden when it fails to load) and name; else the raw client value (spec 001 §2). */
function ClientCell({ data, companies }: ICellRendererParams<AxesRow> & { companies: ReadonlyMap<string, Company> }) {
  const [broken, setBroken] = useState(false);
  if (!data) return null;
  const company = companies.get(data.sendercompid);
  if (!company?.name) return <span>{data.client}</span>;
  return (
    <span className={classes.client}>
      {company.logo && !broken && (
        <img className={classes.logo} src={company.logo} alt="" onError={() => setBroken(true)} referrerPolicy="no-referrer" />
      )}
      <span>{company.name}</span>
    </span>
  );
}

function rowColumns(now: () => number, companies: ReadonlyMap<string, Company>): ColDef<AxesRow>[] {
  return [
    { headerName: 'Symbol', field: 'symbol', width: 80, cellStyle: { fontWeight: 600 } },
    { headerName: 'Maturity', colId: 'maturity', width: 66, valueGetter: (p) => formatMaturity(p.data?.maturity) },
    {
      headerName: 'Quantity',
      colId: 'quantity',
      width: 76,
      type: 'rightAligned',
      valueGetter: (p) => (p.data ? p.data.quantity.toLocaleString() : ''),
    },
    {
      headerName: 'Price',
      colId: 'price',
      width: 86,
      type: 'rightAligned',
      valueGetter: (p) => (p.data?.price === null ? 'MKT' : formatPrice(p.data?.price)),
    },
    { headerName: 'Broker', colId: 'broker', width: 70, valueGetter: (p) => p.data?.broker || '—' },
    {
      headerName: 'Client',
      colId: 'client',
      flex: 1,
      minWidth: 110,
      cellRenderer: ClientCell,
      cellRendererParams: { companies },
      valueGetter: (p) => p.data?.client,
    },
    { headerName: 'Status', colId: 'status', width: 84, valueGetter: (p) => ordStatusLabel(p.data?.status) },
    { headerName: 'Age', colId: 'age', width: 48, valueGetter: (p) => (p.data ? formatRowAge(p.data.createdAt, now()) : '') },
  ];
}

function sideText(r: AxesRow | undefined): string {
  if (!r) return '—';
  return `${r.quantity.toLocaleString()} @ ${r.price === null ? 'MKT' : formatPrice(r.price)}`;
}

const CONTRACT_COLUMNS: ColDef<AxesContract>[] = [
  {
    headerName: 'Contract',
    colId: 'contract',
    width: 150,
    valueGetter: (p) => (p.data ? `${p.data.symbol} ${formatMaturity(p.data.maturity)}` : ''),
    cellStyle: { fontWeight: 600 },
  },
  { headerName: 'Bids', field: 'bids', width: 64, type: 'rightAligned' },
  {
    headerName: 'Best bid',
    colId: 'bestBid',
    width: 160,
    type: 'rightAligned',
    valueGetter: (p) => sideText(p.data?.bestBid),
    cellStyle: { color: 'var(--mantine-color-green-8)', fontWeight: 600 },
  },
  {
    headerName: 'Spread',
    colId: 'spread',
    width: 96,
    type: 'rightAligned',
    valueGetter: (p) => (p.data?.spread === undefined ? '—' : formatPrice(p.data.spread)),
  },
  {
    headerName: 'Best offer',
    colId: 'bestOffer',
    width: 160,
    valueGetter: (p) => sideText(p.data?.bestOffer),
    cellStyle: { color: 'var(--mantine-color-red-8)', fontWeight: 600 },
  },
  { headerName: 'Offers', field: 'offers', width: 64 },
];

function SideTable({
  title,
  rows,
  theme,
  columns,
  testId,
}: {
  title: string;
  rows: AxesRow[];
  theme: typeof deskGridTheme;
  columns: ColDef<AxesRow>[];
  testId: string;
}) {
  const apiRef = useRef<GridApi<AxesRow> | null>(null);
  useEffect(() => {
    const timer = window.setInterval(() => apiRef.current?.refreshCells({ columns: ['age'] }), AGE_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <>
      <div className={classes.sideTitle} data-testid={`${testId}-title`}>
        {title} ({rows.length})
      </div>
      <div className={classes.grid} data-testid={testId}>
        <AgGridReact<AxesRow>
          theme={theme}
          rowData={rows}
          columnDefs={columns}
          getRowId={(p) => p.data.key}
          onGridReady={(e) => (apiRef.current = e.api)}
          defaultColDef={{ sortable: false, resizable: true }}
          overlayNoRowsTemplate="<span>No open orders</span>"
          rowHeight={35}
          headerHeight={35}
          animateRows={false}
          enableCellTextSelection
        />
      </div>
    </>
  );
}

/**
 * /axes (spec 001 §2, §4): the live order book of open orders, buyers beside sellers, grouped by
 * contract with the best bid and offer facing each other. A full page without the top navigation,
 * opened from the blotter in its own 1200x800 window. Rows keep their place as orders change: the
 * board's order is price then time per contract, and the grids update rows by their key.
 */
export default function AxesPage() {
  const liveState = useLiveConnection();
  const book = useOrderBookInstance();
  useOrderBookFeed(book, liveState, fetchOrderSnapshot);
  const view = useBookView(book);
  const connectors = useClientConnectors();
  const [exchange, setExchange] = useState<string>('Any');
  const [symbol, setSymbol] = useState('');
  const nowRef = useRef(() => Date.now());

  const companies = useMemo(
    () => new Map<string, Company>(connectors.data.map((c: ClientConnector) => [c.comp_id, { name: c.company_name, logo: c.logo_src }])),
    [connectors.data],
  );
  const columns = useMemo(() => rowColumns(nowRef.current, companies), [companies]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the book's version changes on every flush
  const whole = useMemo(() => deriveAxes(book.getOrders()), [book, view.version]);
  const shown = useMemo(() => filterAxes(whole, { exchange, symbol }), [whole, exchange, symbol]);
  const counters = useMemo(() => axesCounters(shown), [shown]);
  const contracts = useMemo(() => axesContracts(shown), [shown]);

  return (
    <div className={classes.page} data-testid="axes-board">
      <header className={classes.header}>
        <Title order={1} fz="lg">
          Axes
        </Title>
        <span className={classes.counter} data-testid="counter-orders">
          Orders <b>{counters.orders}</b>
        </span>
        <span className={classes.counter} data-testid="counter-clients">
          Clients <b>{counters.clients}</b>
        </span>
        <span className={classes.counter} data-testid="counter-brokers">
          Brokers <b>{counters.brokers}</b>
        </span>
        <Group gap="xs" ml="auto" wrap="nowrap">
          {view.status === 'loading' && (
            <Text fz="xs" c="dimmed">
              Loading orders…
            </Text>
          )}
          {view.status === 'error' && (
            <Text fz="xs" c="red.7">
              {view.error}
            </Text>
          )}
          {liveState.status !== 'connected' && view.status !== 'loading' && (
            <Text fz="xs" c="orange.8" data-testid="axes-live-status">
              {liveState.status === 'connecting' || liveState.status === 'reconnecting' ? 'Connecting…' : 'Not live: updates paused'}
            </Text>
          )}
          <SegmentedControl size="xs" data={[...EXCHANGES]} value={exchange} onChange={setExchange} aria-label="Exchange" />
          <TextInput
            size="xs"
            w={150}
            placeholder="Symbol"
            aria-label="Symbol filter"
            leftSection={<IconSearch size={13} />}
            value={symbol}
            onChange={(e) => setSymbol(e.currentTarget.value)}
          />
        </Group>
      </header>
      <div className={classes.contracts} data-testid="axes-contracts">
        <AgGridReact<AxesContract>
          theme={deskGridTheme}
          rowData={contracts}
          columnDefs={CONTRACT_COLUMNS}
          getRowId={(p) => p.data.key}
          defaultColDef={{ sortable: false, resizable: true }}
          overlayNoRowsTemplate="<span>No contracts with open orders</span>"
          rowHeight={28}
          headerHeight={30}
          animateRows={false}
        />
      </div>
      <div className={classes.sides}>
        <section className={`${classes.side} ${classes.buyers}`} aria-label="Buyers">
          <SideTable title="BUYERS" rows={shown.buyers} theme={buyersTheme} columns={columns} testId="axes-buyers" />
        </section>
        <section className={`${classes.side} ${classes.sellers}`} aria-label="Sellers">
          <SideTable title="SELLERS" rows={shown.sellers} theme={sellersTheme} columns={columns} testId="axes-sellers" />
        </section>
      </div>
    </div>
  );
}
