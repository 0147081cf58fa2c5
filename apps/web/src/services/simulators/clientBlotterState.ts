import type { ClientExecution, ClientOrder, WsTestClientExecution, WsTestClientOrder } from '@fixdesk/protocol';

/**
 * The FIX Client screen's data for one client connector: the snapshot from the test-client service,
 * then every pushed order and execution applied in arrival order (snapshot first, then deltas).
 */
export interface ClientBlotterState {
  orders: ClientOrder[];
  executions: ClientExecution[];
}

export const EMPTY_BLOTTER: ClientBlotterState = { orders: [], executions: [] };

const newestFirst = (a: ClientOrder, b: ClientOrder) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0);

function applyClientOrder(state: ClientBlotterState, order: ClientOrder): ClientBlotterState {
  const i = state.orders.findIndex((o) => o.id === order.id);
  const orders = i < 0 ? [order, ...state.orders].sort(newestFirst) : state.orders.map((o, k) => (k === i ? order : o));
  return { ...state, orders };
}

function applyClientExecution(state: ClientBlotterState, execution: ClientExecution, order: ClientOrder): ClientBlotterState {
  const next = applyClientOrder(state, order);
  if (next.executions.some((e) => e.id === execution.id)) return next;
  return { ...next, executions: [...next.executions, execution] };
}

/** One pushed message for `compId`; messages for other clients leave the state as it is. */
export function applyTestClientMessage(
  state: ClientBlotterState,
  compId: string,
  message: WsTestClientOrder | WsTestClientExecution,
): ClientBlotterState {
  if (message.comp_id !== compId) return state;
  return message.type === 'test_client_order'
    ? applyClientOrder(state, message.order)
    : applyClientExecution(state, message.execution, message.order);
}

/** The selected order's executions, oldest first. */
export function executionsOf(state: ClientBlotterState, orderKey: string | null): ClientExecution[] {
  if (!orderKey) return [];
  return state.executions.filter((e) => e.orderKey === orderKey);
}
