import type { OrderActionResponse } from '@fixdesk/protocol';
import { notifications } from '@mantine/notifications';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { ApiError, NetworkError } from '@fixdesk/client';
import { ordersApi } from './http';
import type { OrderBook } from './orderBook';
import type { FillRequest, RequestDecision, RequestKind } from './ordersApi';

export type OrderActionName = 'accept' | 'reject' | 'fill' | 'doneForDay' | 'cancelConfirm' | 'cancelRefuse' | 'replaceConfirm' | 'replaceRefuse';

/** Which orders have an action in flight (the Accept button turns orange with Accepting...). */
class InFlight {
  private readonly actions = new Map<number, OrderActionName>();
  private readonly listeners = new Set<() => void>();
  get = (orderId: number): OrderActionName | undefined => this.actions.get(orderId);
  set(orderId: number, action: OrderActionName | null) {
    if (action) this.actions.set(orderId, action);
    else this.actions.delete(orderId);
    for (const l of [...this.listeners]) l();
  }
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export const inFlight = new InFlight();

export function useInFlight(orderId: number | null | undefined): OrderActionName | undefined {
  const get = () => (orderId === null || orderId === undefined ? undefined : inFlight.get(orderId));
  return useSyncExternalStore(inFlight.subscribe, get, get);
}

const FAILURE_TITLES: Record<OrderActionName, string> = {
  accept: 'Failed to accept order',
  reject: 'Failed to reject order',
  fill: 'Failed to fill order',
  doneForDay: 'Failed to mark order done for day',
  cancelConfirm: 'Failed to confirm the cancel request',
  cancelRefuse: 'Failed to refuse the cancel request',
  replaceConfirm: 'Failed to confirm the replace request',
  replaceRefuse: 'Failed to refuse the replace request',
};

/** The server's explanation of a failed action, as the broker should read it. */
export function actionErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return 'Authentication required. Please log in to perform trading actions.';
    if (error.status === 403) return `${error.message} (your role may not trade)`;
    return error.message;
  }
  if (error instanceof NetworkError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export interface OrderActions {
  accept(orderId: number, notes?: string): Promise<OrderActionResponse>;
  reject(orderId: number, reason: string): Promise<OrderActionResponse>;
  fill(orderId: number, fill: FillRequest): Promise<OrderActionResponse>;
  doneForDay(orderId: number): Promise<OrderActionResponse>;
  decide(orderId: number, kind: RequestKind, decision: RequestDecision, reason?: string): Promise<OrderActionResponse>;
}

/**
 * The broker's trading actions. The server is the authority: a refusal (400/409) is shown to the
 * broker with the server's own message and rethrown so the form can keep its input; a success patches
 * the cached order at once (the live echo follows with the full order).
 */
export function useOrderActions(book: OrderBook | null): OrderActions {
  const run = useCallback(
    async (orderId: number, name: OrderActionName, call: () => Promise<OrderActionResponse>) => {
      if (inFlight.get(orderId)) throw new Error('Another action on this order is still in flight');
      inFlight.set(orderId, name);
      try {
        const answer = await call();
        book?.applyActionAnswer(answer.order);
        return answer;
      } catch (error) {
        notifications.show({
          id: `order-action-${orderId}`,
          color: 'red',
          title: FAILURE_TITLES[name],
          message: actionErrorMessage(error),
          autoClose: 8000,
        });
        throw error;
      } finally {
        inFlight.set(orderId, null);
      }
    },
    [book],
  );

  return useMemo<OrderActions>(
    () => ({
      accept: (id, notes) => run(id, 'accept', () => ordersApi.accept(id, notes)),
      reject: (id, reason) => run(id, 'reject', () => ordersApi.reject(id, reason)),
      fill: (id, fill) => run(id, 'fill', () => ordersApi.fill(id, fill)),
      doneForDay: (id) => run(id, 'doneForDay', () => ordersApi.doneForDay(id)),
      decide: (id, kind, decision, reason) =>
        run(id, `${kind}${decision === 'confirm' ? 'Confirm' : 'Refuse'}` as OrderActionName, () => ordersApi.decide(id, kind, decision, reason)),
    }),
    [run],
  );
}
