import type { Order } from '@fixdesk/protocol';

/** What cells inside the Orders grid may do; provided by the blotter screen (the grid's context). */
export interface BlotterCellActions {
  accept(order: Order): void;
  /** Why the user cannot trade now (role, offline), or null: the row's Accept button is disabled with it as its title. */
  tradeBlock(): string | null;
}
