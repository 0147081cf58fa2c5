import { useCallback, useSyncExternalStore } from 'react';
import { COOKIE_CONSENT_KEY, parseConsent, writeConsent, type ConsentChoice, type CookieConsent } from './cookieConsent';

/** Fired in this tab when the choice changes or someone asks to reopen the preferences. */
const CONSENT_CHANGED = 'fixdesk:cookie-consent-changed';
const OPEN_PREFERENCES = 'fixdesk:cookie-preferences-open';

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === COOKIE_CONSENT_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(CONSENT_CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CONSENT_CHANGED, onChange);
  };
}

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(COOKIE_CONSENT_KEY);
  } catch {
    return null;
  }
}

/** The stored cookie choice (null until the visitor makes one) and a way to record a new one. */
export function useCookieConsent(): { consent: CookieConsent | null; choose: (choice: ConsentChoice) => void } {
  // The raw string is the snapshot, so React compares by value and re-renders only on change.
  const raw = useSyncExternalStore(subscribe, readRaw, () => null);
  const choose = useCallback((choice: ConsentChoice) => {
    try {
      writeConsent(window.localStorage, choice);
    } catch (error) {
      console.warn('Could not store the cookie choice', error);
    }
    window.dispatchEvent(new Event(CONSENT_CHANGED));
  }, []);
  return { consent: parseConsent(raw), choose };
}

/** Reopens the banner on its preferences view (the cookie policy offers this). */
export function openCookiePreferences(): void {
  window.dispatchEvent(new Event(OPEN_PREFERENCES));
}

export function onOpenCookiePreferences(listener: () => void): () => void {
  window.addEventListener(OPEN_PREFERENCES, listener);
  return () => window.removeEventListener(OPEN_PREFERENCES, listener);
}
