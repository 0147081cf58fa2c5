import type { OrderActionResponse } from '@fixdesk/protocol';
import { notifications } from '@mantine/notifications';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { ApiError, NetworkError } from '@fixdesk/client';
import { ordersApi } from './http';
import type { OrderBook } from './orderBook';
import type { FillRequest, RequestDecision, RequestKind } from './ordersApi';

export type OrderActionName =
  'accept' | 'reject' | 'fill' | 'doneForDay' | 'cancel' | 'cancelConfirm' | 'cancelRefuse' | 'replaceConfirm' | 'replaceRefuse';

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
  cancel: 'Failed to cancel order',
  cancelConfirm: 'Failed to confirm the cancel request',
  cancelRefuse: 'Failed to refuse the cancel request',
  replaceConfirm: 'Failed to confirm the replace request',
  replaceRefuse: 'Failed to refuse the replace request',
};

/** What a successful action tells the broker (a fill says its own, with quantity and price). */
const SUCCESS_TITLES: Record<Exclude<OrderActionName, 'fill'>, string> = {
  accept: 'Order accepted',
  reject: 'Order rejected',
  doneForDay: 'Order done for day',
  cancel: 'Order canceled',
  cancelConfirm: 'Cancel request confirmed',
  cancelRefuse: 'Cancel request refused',
  replaceConfirm: 'Replace request confirmed',
  replaceRefuse: 'Replace request refused',
};

/**
 * Whether a failed action was refused by the server (it answered) or never reached it (the broker
 * may retry), and its explanation as the broker should read it.
 */
export function actionFailure(error: unknown): { kind: 'refused' | 'unreachable'; title: string; message: string } {
  if (error instanceof ApiError) {
    const message =
      error.status === 401
        ? 'Authentication required. Please log in to perform trading actions.'
        : error.status === 403
          ? `${error.message} (your role may not trade)`
          : error.message;
    return { kind: 'refused', title: 'The server refused', message };
  }
  if (error instanceof NetworkError) {
    return {
      kind: 'unreachable',
      title: 'The server could not be reached',
      message: 'Nothing was done: the request did not reach the server. Check the connection and try again.',
    };
  }
  return { kind: 'refused', title: 'The action failed', message: error instanceof Error ? error.message : String(error) };
}

/** The explanation of a failed action, as the broker should read it (refused, or not reached). */
export function actionErrorMessage(error: unknown): string {
  const failure = actionFailure(error);
  return failure.kind === 'unreachable' ? `${failure.title}. ${failure.message}` : failure.message;
}

export interface OrderActions {
  accept(orderId: number, notes?: string): Promise<OrderActionResponse>;
  reject(orderId: number, reason: string): Promise<OrderActionResponse>;
  fill(orderId: number, fill: FillRequest): Promise<OrderActionResponse>;
  doneForDay(orderId: number): Promise<OrderActionResponse>;
  cancel(orderId: number, reason: string): Promise<OrderActionResponse>;
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
        if (name !== 'fill') {
          notifications.show({
            // Its own id: a toast still showing with the same id would swallow the next one.
            id: `order-action-done-${name}-${orderId}`,
            color: 'green',
            title: SUCCESS_TITLES[name],
            message: answer.order.brokerorderid,
            autoClose: 3000,
          });
        }
        return answer;
      } catch (error) {
        const failure = actionFailure(error);
        notifications.show({
          id: `order-action-${orderId}`,
          color: failure.kind === 'unreachable' ? 'orange' : 'red',
          title: `${FAILURE_TITLES[name]}: ${failure.kind === 'unreachable' ? 'server not reached' : 'refused by the server'}`,
          message: failure.message,
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
      cancel: (id, reason) => run(id, 'cancel', () => ordersApi.cancel(id, reason)),
      decide: (id, kind, decision, reason) =>
        run(id, `${kind}${decision === 'confirm' ? 'Confirm' : 'Refuse'}` as OrderActionName, () =>
          ordersApi.decide(id, kind, decision, reason),
        ),
    }),
    [run],
  );
}
