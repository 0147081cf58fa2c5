import { useSyncExternalStore } from 'react';
import { timeZoneLabel, userTimeZone } from './localTime';

/**
 * The zone every screen shows times in: UTC unless the user chose their local zone; the choice is
 * remembered in this browser. Times are always 24-hour with the zone named (timeZoneLabel).
 */
export type ZoneChoice = 'utc' | 'local';

const KEY = 'fixdesk.timeZone';
const listeners = new Set<() => void>();

function read(): ZoneChoice {
  try {
    return typeof window !== 'undefined' && window.localStorage.getItem(KEY) === 'local' ? 'local' : 'utc';
  } catch {
    return 'utc';
  }
}

let choice: ZoneChoice | null = null;

export function zoneChoice(): ZoneChoice {
  return (choice ??= read());
}

export function setZoneChoice(next: ZoneChoice): void {
  choice = next;
  try {
    window.localStorage.setItem(KEY, next);
  } catch {
    // Not remembered; still applied for this page.
  }
  for (const l of listeners) l();
}

/** The IANA zone to show times in now ('UTC' or the browser's zone). */
export function displayZone(): string {
  return zoneChoice() === 'local' ? userTimeZone() : 'UTC';
}

/** The zone as named in headings: 'UTC', 'Europe/London (GMT)'. */
export function displayZoneLabel(): string {
  return timeZoneLabel(displayZone());
}

export function onZoneChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The zone to show times in, re-rendering when the user changes it. */
export function useDisplayZone(): string {
  useSyncExternalStore(onZoneChange, zoneChoice, () => 'utc' as const);
  return displayZone();
}
