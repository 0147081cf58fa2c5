import '../../components/grid/desk-grid.css';
import type { Order } from '@fixdesk/protocol';
import { Alert, Box, Button, Group, Loader, Paper, Text } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { chromeFor } from '../../app/chrome';
import { useDesktopShell } from '../../app/desktopShell';
import { isRegisteredPath } from '../../app/routes';
import { LiveConnectionNotice } from '../../services/live/LiveConnectionNotice';
import { useLiveConnection } from '../../services/live/useLive';
import { ordersApi } from '../../services/orders/http';
import {
  useBookExecutionReports,
  useBookOrder,
  useBookView,
  useOrderBookFeed,
  useOrderBookInstance,
} from '../../services/orders/useOrderBook';
import { useClientConnectors, useLatestPrices } from '../../services/orders/useDeskReference';
import { useOrderActions } from '../../services/orders/useOrderActions';
import { OrderInfoPanel } from '../../components/order-info/OrderInfoPanel';

type Lookup = { kind: 'pending' } | { kind: 'found'; id: number } | { kind: 'notFound'; message: string };

/**
 * /order-detail/{orderid} (spec 000 §2): a loading note, then the Order Info panel at full height (no
 * pop-out), kept live like the blotter; or Order Not Found (without other orders' ids).
 */
export default function OrderDetailPage() {
  const { orderid = '' } = useParams();
  const live = useLiveConnection();
  const book = useOrderBookInstance();
  const [lookup, setLookup] = useState<Lookup>({ kind: 'pending' });

  const fetchSnapshot = useCallback(async (): Promise<Order[]> => {
    const full = await ordersApi.get(orderid);
    if (full) {
      book.applyOrderDetail(full);
      setLookup({ kind: 'found', id: full.id });
      return [full];
    }
    setLookup({ kind: 'notFound', message: `Could not find order with ID: ${orderid}` });
    return [];
  }, [book, orderid]);

  useOrderBookFeed(book, live, fetchSnapshot);
  const view = useBookView(book);
  const order = useBookOrder(book, lookup.kind === 'found' ? lookup.id : null);
  const reports = useBookExecutionReports(book, order?.id);
  const actions = useOrderActions(book);
  const latest = useLatestPrices();
  const connectors = useClientConnectors();
  const { pathname } = useLocation();
  const navHeight = { main: 52, compact: 60, none: 0 }[chromeFor(pathname, useDesktopShell()).topNav];

  let body;
  if (view.status === 'error') {
    body = (
      <Alert color="red" icon={<IconAlertCircle />} title="Error Loading Order" m="md" data-testid="order-detail-error">
        {view.error}
      </Alert>
    );
  } else if (lookup.kind === 'notFound') {
    body = (
      <Alert color="orange" icon={<IconAlertCircle />} title="Order Not Found" m="md" data-testid="order-not-found">
        <Text fz="sm">{lookup.message}</Text>
        {isRegisteredPath('/orders') && (
          <Button component={Link} to="/orders" mt="sm" size="xs" variant="light" leftSection={<IconArrowLeft size={14} />}>
            Back to the blotter
          </Button>
        )}
      </Alert>
    );
  } else if (!order) {
    body = (
      <Group gap="sm" p="md" data-testid="order-detail-loading">
        <Loader size="sm" />
        <Text fz="sm" c="dimmed">
          Loading order {orderid}...
        </Text>
      </Group>
    );
  } else {
    body = (
      <Paper radius={0} style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <OrderInfoPanel
          order={order}
          actions={actions}
          latestPrices={latest.data}
          connectors={connectors.data}
          executionCount={reports?.length}
          timelineOpen
        />
      </Paper>
    );
  }

  return (
    <Box
      style={{
        display: 'flex',
        flexDirection: 'column',
        flex: 1,
        minHeight: 0,
        height: `calc(100dvh - ${navHeight}px)`,
        maxWidth: 880,
        width: '100%',
        margin: '0 auto',
        background: 'var(--mantine-color-white)',
        borderLeft: '1px solid var(--fd-border)',
        borderRight: '1px solid var(--fd-border)',
      }}
      data-testid="order-detail"
    >
      <LiveConnectionNotice state={live} onRetry={live.retry} />
      {body}
    </Box>
  );
}
