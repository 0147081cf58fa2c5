import type { KeyValueStorage } from '../auth/sessionStore';

/** Local storage key of the visitor's cookie choice (spec 000 §9, 001 §2). */
export const COOKIE_CONSENT_KEY = 'cookieConsent';

/** The stored choice. Essential cookies cannot be refused, so `necessary` is always true. */
export interface CookieConsent {
  necessary: true;
  analytics: boolean;
  functional: boolean;
  /** ISO 8601 time the choice was made. */
  timestamp: string;
}

export type ConsentChoice = Pick<CookieConsent, 'analytics' | 'functional'>;

export const ACCEPT_ALL: ConsentChoice = { analytics: true, functional: true };
export const REJECT_NON_ESSENTIAL: ConsentChoice = { analytics: false, functional: false };

/** A stored value that is not a well-formed choice counts as no choice: the banner asks again. */
export function parseConsent(raw: string | null): CookieConsent | null {
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.analytics !== 'boolean' || typeof record.functional !== 'boolean') return null;
  if (typeof record.timestamp !== 'string' || !Number.isFinite(Date.parse(record.timestamp))) return null;
  return { necessary: true, analytics: record.analytics, functional: record.functional, timestamp: record.timestamp };
}

export function readConsent(storage: KeyValueStorage): CookieConsent | null {
  try {
    return parseConsent(storage.getItem(COOKIE_CONSENT_KEY));
  } catch {
    return null;
  }
}

export function writeConsent(storage: KeyValueStorage, choice: ConsentChoice, now: Date = new Date()): CookieConsent {
  const consent: CookieConsent = {
    necessary: true,
    analytics: choice.analytics,
    functional: choice.functional,
    timestamp: now.toISOString(),
  };
  storage.setItem(COOKIE_CONSENT_KEY, JSON.stringify(consent));
  return consent;
}
