import type { Order } from '@fixdesk/protocol';

/** What cells inside the Orders grid may do; provided by the blotter screen (the grid's context). */
export interface BlotterCellActions {
  accept(order: Order): void;
}
