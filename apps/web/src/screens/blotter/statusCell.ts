import {
  ACCEPT_BUTTON_TEXT,
  acceptButtonColour,
  blotterStatusColour,
  blotterStatusLabel,
  closedFillNote,
  Decimal,
  ordStatusLabel,
  formatQuantity,
  ORD_REJ_REASON_LABELS,
  ordRejReasonLabel,
  OrdStatus,
} from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import type { ICellRendererComp, ICellRendererParams } from 'ag-grid-community';
import { inFlight } from '../../services/orders/useOrderActions';
import type { BlotterCellActions } from './blotterContext';
import { TOKEN_MANTINE, tokenCss, tokenFill } from '../../components/grid/colours';

function percentFilled(order: Order): number {
  const cum = Decimal.tryFrom(order.cumqty);
  const qty = Decimal.tryFrom(order.orderqty);
  if (!cum || !qty || !qty.isPositive()) return 0;
  return Math.min(100, Math.max(0, Math.round(cum.div(qty, 4, 'HALF_UP').toNumber() * 100)));
}

function span(className: string | null, text: string): HTMLSpanElement {
  const el = document.createElement('span');
  if (className) el.className = className;
  el.textContent = text;
  return el;
}

/**
 * The Orders grid's status cell (spec 000 §2): a pending order shows an Accept button (blue; orange
 * with Accepting... while in flight); Accepted is blue with the accepting user; Partial is shaded
 * green by its fill ratio; the other statuses are drawn in their domain colour.
 *
 * Plain DOM rather than a React component: the grid draws it in every visible row, and React cells
 * made drawing the first rows one of the longest tasks while the blotter loads. The grid's
 * context holds the screen's actions (BlotterCellActions).
 */
export class StatusCellRenderer implements ICellRendererComp<Order> {
  private readonly gui = document.createElement('div');
  private order: Order | undefined;
  private actions: BlotterCellActions | undefined;
  /** The in-flight action drawn, to redraw only when it changes. */
  private drawnInFlight: string | undefined;
  private unsubscribe: (() => void) | null = null;
  private button: HTMLButtonElement | null = null;
  private pendingLabel: HTMLSpanElement | null = null;

  init(params: ICellRendererParams<Order, unknown, BlotterCellActions>): void {
    this.gui.className = 'fd-status';
    this.set(params);
  }

  getGui(): HTMLElement {
    return this.gui;
  }

  refresh(params: ICellRendererParams<Order, unknown, BlotterCellActions>): boolean {
    this.set(params);
    return true;
  }

  destroy(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private set(params: ICellRendererParams<Order, unknown, BlotterCellActions>): void {
    this.order = params.data;
    this.actions = params.context;
    // Only a pending order's button follows the actions in flight (as the React cell did with useInFlight).
    const pending = this.order?.ordstatus === OrdStatus.PendingNew;
    if (pending && !this.unsubscribe) {
      this.unsubscribe = inFlight.subscribe(() => {
        if (this.order && inFlight.get(this.order.id) !== this.drawnInFlight) this.draw();
      });
    } else if (!pending && this.unsubscribe) {
      this.unsubscribe();
      this.unsubscribe = null;
    }
    this.draw();
  }

  /** The pending order's Accept button, kept across redraws so a focused button stays focused. */
  private acceptButton(): HTMLButtonElement {
    if (this.button) return this.button;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'fd-accept';
    button.addEventListener('click', () => {
      const order = this.order;
      if (order?.ordstatus === OrdStatus.PendingNew && inFlight.get(order.id) !== 'accept' && !this.actions?.tradeBlock())
        this.actions?.accept(order);
    });
    this.button = button;
    return button;
  }

  private draw(): void {
    const { gui, order } = this;
    gui.removeAttribute('data-status');
    gui.removeAttribute('title');
    gui.style.color = '';
    gui.style.background = '';
    this.drawnInFlight = undefined;
    if (!order) {
      gui.replaceChildren();
      return;
    }
    const status = order.ordstatus;
    const style = blotterStatusColour(status, { cumQty: order.cumqty, orderQty: order.orderqty });
    const label = blotterStatusLabel(status);

    if (status === OrdStatus.PendingNew) {
      // The status itself, and the Accept button beside it (not instead of it).
      const action = inFlight.get(order.id);
      this.drawnInFlight = action;
      const accepting = action === 'accept';
      const blocked = this.actions?.tradeBlock() ?? null;
      const button = this.acceptButton();
      button.dataset.colour = TOKEN_MANTINE[acceptButtonColour(accepting)];
      button.dataset.testid = `accept-${order.brokerorderid}`;
      button.setAttribute('aria-label', `Accept order ${order.brokerorderid}`);
      button.disabled = blocked !== null || (action !== undefined && !accepting);
      button.textContent = accepting ? ACCEPT_BUTTON_TEXT.inFlight : ACCEPT_BUTTON_TEXT.idle;
      // A disabled button shows no tooltip of its own: the cell carries why.
      if (blocked) gui.title = blocked;
      const labelEl = (this.pendingLabel ??= span('fd-status-label', label));
      labelEl.style.color = tokenCss(style.colour);
      gui.dataset.status = status;
      if (gui.childNodes.length !== 2 || gui.firstChild !== labelEl || gui.lastChild !== button) gui.replaceChildren(labelEl, button);
      return;
    }

    gui.replaceChildren();
    gui.dataset.status = status;
    if (status === OrdStatus.PartiallyFilled) {
      const pct = percentFilled(order);
      gui.title = `${formatQuantity(order.cumqty)} of ${formatQuantity(order.orderqty)} filled`;
      gui.style.color = tokenCss('green');
      gui.style.background = `linear-gradient(to right, color-mix(in srgb, var(--mantine-color-green-5) ${Math.round(18 + 40 * (style.intensity ?? 0))}%, transparent) ${pct}%, transparent ${pct}%)`;
      gui.append(`${label} `, span('fd-num', `${pct}%`));
      return;
    }

    gui.style.color = tokenCss(style.colour);
    const filledBackground =
      status === OrdStatus.Filled
        ? tokenFill('green')
        : status === OrdStatus.Canceled || status === OrdStatus.Rejected
          ? tokenFill('red')
          : undefined;
    if (filledBackground) gui.style.background = filledBackground;
    gui.append(span(null, label));
    if (order.refusal) {
      // The reason at a glance ('Unknown symbol'); its code and the text the client got on hover.
      // 'Other' (99) or a code FIX 4.4 does not name says nothing: the text the client got says why.
      const code = String(order.refusal.ordRejReason);
      const named = code === '99' ? undefined : ORD_REJ_REASON_LABELS[code];
      gui.append(span('fd-status-user', named ?? (order.refusal.text.trim() || 'at intake')));
      gui.title = `Refused at intake: ${ordRejReasonLabel(order.refusal.ordRejReason)}. ${order.refusal.text}`;
    }
    if (status === OrdStatus.New && order.accepted_by) gui.append(span('fd-status-user', `by ${order.accepted_by}`));
    // A done (or canceled) order that had been filled says so: 'Done  filled 20/20'.
    const fills = closedFillNote(status, order.cumqty, order.orderqty);
    if (fills) {
      gui.append(span('fd-status-user', fills));
      gui.title = `${ordStatusLabel(status)} (${fills})`;
    }
    if (order.pendingRequest && status !== OrdStatus.PendingCancel && status !== OrdStatus.PendingReplace)
      gui.append(span('fd-status-user', 'request'));
  }
}
