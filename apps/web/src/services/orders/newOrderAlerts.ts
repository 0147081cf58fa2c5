import { formatOrderPrice, formatQuantity, SIDE_LABELS, type SideCode } from '@fixdesk/domain';
import { orderOfMessage, type Order } from '@fixdesk/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveMessages } from '../live/useLive';

/**
 * "New Order Received" (spec 000 §9): a browser notification that stays until dismissed, shown only
 * with granted permission (asked after sign-in), and an optional sound. Preferences are per user.
 */
const NEW_ORDER_TITLE = 'New Order Received';

export interface AlertPreferences {
  desktop: boolean;
  sound: boolean;
}

const DEFAULTS: AlertPreferences = { desktop: true, sound: false };
const key = (username: string) => `fixdesk.alerts.${username}`;

function loadAlertPreferences(storage: Pick<Storage, 'getItem'>, username: string): AlertPreferences {
  try {
    const raw = storage.getItem(key(username));
    if (!raw) return DEFAULTS;
    const parsed = JSON.parse(raw) as Partial<AlertPreferences>;
    return { desktop: parsed.desktop !== false, sound: parsed.sound === true };
  } catch {
    return DEFAULTS;
  }
}

/** The notification's body: who wants what, e.g. "SGX Client BUYS 10 C5TC @ 27,000.00". */
function newOrderSummary(order: Order): string {
  const side = (SIDE_LABELS[order.side as SideCode] ?? order.side).toUpperCase();
  const who = order.client_name ?? order.sendercompid;
  return `${who} ${side === 'BUY' ? 'BUYS' : 'SELLS'} ${formatQuantity(order.orderqty)} ${order.symbol} @ ${formatOrderPrice(order.price)} (${order.brokerorderid})`;
}

let audio: AudioContext | null = null;
/** Two short tones; generated, so the app ships no sound file. */
function playNewOrderSound(): void {
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    void ctx.resume();
    const t0 = ctx.currentTime;
    for (const [offset, freq] of [
      [0, 880],
      [0.16, 1320],
    ] as const) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + offset);
      gain.gain.exponentialRampToValueAtTime(0.2, t0 + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + offset + 0.14);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + offset);
      osc.stop(t0 + offset + 0.15);
    }
  } catch (error) {
    console.warn('Could not play the new-order sound', error);
  }
}

export type PermissionState = NotificationPermission | 'unsupported';

function currentPermission(): PermissionState {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/**
 * New-order alerts for the signed-in user: asks for notification permission once after sign-in
 * (when the browser has not been asked yet), and raises the notification and the sound on new_order.
 * Clicking a notification focuses the window and calls onOpen with the order.
 */
export function useNewOrderAlerts(username: string | null, onOpen: (order: Order) => void) {
  const [prefs, setPrefs] = useState<AlertPreferences>(() => (username ? loadAlertPreferences(window.localStorage, username) : DEFAULTS));
  const [permission, setPermission] = useState<PermissionState>(currentPermission);
  const openRef = useRef(onOpen);
  useEffect(() => {
    openRef.current = onOpen;
  });

  useEffect(() => {
    if (username) setPrefs(loadAlertPreferences(window.localStorage, username));
  }, [username]);

  const requestPermission = useCallback(async () => {
    if (typeof Notification === 'undefined') return;
    try {
      setPermission(await Notification.requestPermission());
    } catch (error) {
      console.warn('Notification permission request failed', error);
    }
  }, []);

  useEffect(() => {
    if (username && currentPermission() === 'default') void requestPermission();
  }, [username, requestPermission]);

  const update = useCallback(
    (patch: Partial<AlertPreferences>) => {
      setPrefs((p) => {
        const next = { ...p, ...patch };
        if (username) window.localStorage.setItem(key(username), JSON.stringify(next));
        return next;
      });
    },
    [username],
  );

  useLiveMessages('new_order', (m) => {
    const order = orderOfMessage(m);
    if (!order?.brokerorderid) return;
    if (prefs.sound) playNewOrderSound();
    if (prefs.desktop && currentPermission() === 'granted') {
      try {
        const n = new Notification(NEW_ORDER_TITLE, { body: newOrderSummary(order), tag: `order-${order.id}`, requireInteraction: true });
        n.onclick = () => {
          window.focus();
          openRef.current(order);
          n.close();
        };
      } catch (error) {
        console.warn('Could not show the new-order notification', error);
      }
    }
  });

  return { prefs, update, permission, requestPermission };
}
