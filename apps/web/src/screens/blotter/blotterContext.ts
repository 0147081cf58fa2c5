import type { Order } from '@fixdesk/protocol';
import { createContext, use } from 'react';

/** What cells inside the grids may do; provided by the blotter screen. */
export interface BlotterCellActions {
  accept(order: Order): void;
}

export const BlotterCellActionsContext = createContext<BlotterCellActions | null>(null);

export function useBlotterCellActions(): BlotterCellActions {
  const value = use(BlotterCellActionsContext);
  if (!value) throw new Error('Blotter cells need <BlotterCellActionsContext>');
  return value;
}
