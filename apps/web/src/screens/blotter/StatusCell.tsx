import { ACCEPT_BUTTON_TEXT, acceptButtonColour, blotterStatusColour, blotterStatusLabel, Decimal, formatQuantity, OrdStatus } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import { Button } from '@mantine/core';
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useInFlight } from '../../services/orders/useOrderActions';
import { useBlotterCellActions } from './blotterContext';
import { TOKEN_MANTINE, tokenCss, tokenFill } from './colours';

function percentFilled(order: Order): number {
  const cum = Decimal.tryFrom(order.cumqty);
  const qty = Decimal.tryFrom(order.orderqty);
  if (!cum || !qty || !qty.isPositive()) return 0;
  return Math.min(100, Math.max(0, Math.round(cum.div(qty, 4, 'HALF_UP').toNumber() * 100)));
}

/**
 * The Orders grid's status cell (spec 000 §2): a pending order shows an Accept button (blue; orange
 * with Accepting... while in flight); Accepted is blue with the accepting user; Partial is shaded
 * green by its fill ratio; the other statuses are drawn in their domain colour.
 */
export function StatusCell({ data: order }: CustomCellRendererProps<Order>) {
  const actions = useBlotterCellActions();
  const inFlight = useInFlight(order?.id);
  if (!order) return null;
  const status = order.ordstatus;
  const style = blotterStatusColour(status, { cumQty: order.cumqty, orderQty: order.orderqty });
  const label = blotterStatusLabel(status);

  if (status === OrdStatus.PendingNew) {
    const accepting = inFlight === 'accept';
    return (
      <div className="fd-status">
        <Button
          size="compact-xs"
          color={TOKEN_MANTINE[acceptButtonColour(accepting)]}
          variant="filled"
          loading={false}
          disabled={inFlight !== undefined && !accepting}
          data-testid={`accept-${order.brokerorderid}`}
          aria-label={`Accept order ${order.brokerorderid}`}
          onClick={(event) => {
            event.stopPropagation();
            if (!accepting) actions.accept(order);
          }}
          style={{ minWidth: 84 }}
        >
          {accepting ? ACCEPT_BUTTON_TEXT.inFlight : ACCEPT_BUTTON_TEXT.idle}
        </Button>
      </div>
    );
  }

  if (status === OrdStatus.PartiallyFilled) {
    const pct = percentFilled(order);
    const green = tokenCss('green');
    return (
      <div
        className="fd-status"
        data-status={status}
        title={`${formatQuantity(order.cumqty)} of ${formatQuantity(order.orderqty)} filled`}
        style={{
          color: green,
          background: `linear-gradient(to right, color-mix(in srgb, var(--mantine-color-green-5) ${Math.round(18 + 40 * (style.intensity ?? 0))}%, transparent) ${pct}%, transparent ${pct}%)`,
        }}
      >
        {label} <span className="fd-num">{pct}%</span>
      </div>
    );
  }

  const colour = tokenCss(style.colour);
  const filledBackground = status === OrdStatus.Filled ? tokenFill('green') : status === OrdStatus.Canceled || status === OrdStatus.Rejected ? tokenFill('red') : undefined;
  return (
    <div className="fd-status" data-status={status} style={{ color: colour, background: filledBackground }}>
      <span>{label}</span>
      {status === OrdStatus.New && order.accepted_by && <span className="fd-status-user">by {order.accepted_by}</span>}
      {order.pendingRequest && status !== OrdStatus.PendingCancel && status !== OrdStatus.PendingReplace && (
        <span className="fd-status-user">request</span>
      )}
    </div>
  );
}
