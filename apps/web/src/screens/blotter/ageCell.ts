import { formatWaitingAge, OrdStatus, PENDING_AGE_ALERT_MS } from '@fixdesk/domain';
import type { Order } from '@fixdesk/protocol';
import type { ICellRendererComp, ICellRendererParams } from 'ag-grid-community';

/**
 * One clock for every Age cell on screen: a single one-second interval, running only while a pending
 * order's cell is drawn. Each tick touches the text of those cells alone; the grid (its rows, its
 * model, the other cells) is not asked to redraw anything.
 */
const ticking = new Set<AgeCellRenderer>();
let interval: number | undefined;

function tick(): void {
  const now = Date.now();
  for (const cell of ticking) cell.draw(now);
}

function watch(cell: AgeCellRenderer): void {
  ticking.add(cell);
  interval ??= window.setInterval(tick, 1000);
}

function unwatch(cell: AgeCellRenderer): void {
  ticking.delete(cell);
  if (ticking.size === 0 && interval !== undefined) {
    window.clearInterval(interval);
    interval = undefined;
  }
}

/** The time a pending order has been waiting for the desk (null when it waits for nothing). */
export function pendingSince(o: Order): string | null {
  return o.ordstatus === OrdStatus.PendingNew && !o.refusal ? o.created_at : null;
}

/**
 * The Orders grid's Age cell: how long a pending order has waited since it was received, ticking,
 * highlighted once it has waited PENDING_AGE_ALERT_MS (a minute) so that nothing waits unseen.
 * Empty for every other order. Plain DOM, as the status cell.
 */
export class AgeCellRenderer implements ICellRendererComp<Order> {
  private readonly gui = document.createElement('span');
  private since: number | null = null;

  init(params: ICellRendererParams<Order>): void {
    this.gui.className = 'fd-age';
    this.set(params);
  }

  getGui(): HTMLElement {
    return this.gui;
  }

  refresh(params: ICellRendererParams<Order>): boolean {
    this.set(params);
    return true;
  }

  destroy(): void {
    unwatch(this);
  }

  private set(params: ICellRendererParams<Order>): void {
    const since = params.data ? pendingSince(params.data) : null;
    const t = since ? Date.parse(since) : NaN;
    this.since = Number.isNaN(t) ? null : t;
    if (this.since === null) unwatch(this);
    else watch(this);
    this.draw(Date.now());
  }

  draw(now: number): void {
    if (this.since === null) {
      this.gui.textContent = '';
      this.gui.removeAttribute('data-late');
      this.gui.removeAttribute('title');
      return;
    }
    const waited = now - this.since;
    this.gui.textContent = formatWaitingAge(waited);
    const late = waited >= PENDING_AGE_ALERT_MS;
    if (late !== this.gui.hasAttribute('data-late')) {
      this.gui.toggleAttribute('data-late', late);
      this.gui.title = late ? `Waiting for the desk for over ${PENDING_AGE_ALERT_MS / 1000} s` : '';
    }
  }
}
