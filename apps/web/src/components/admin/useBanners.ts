import { useCallback, useEffect, useRef, useState } from 'react';

/** Spec 001 §9: a success banner clears after 3000 ms. */
export const SUCCESS_BANNER_MS = 3000;

export interface Banners {
  success: string | null;
  error: string | null;
  showSuccess(message: string): void;
  showError(message: string): void;
  clearError(): void;
}

/** The admin screens' banners: a success that clears itself, an error that stays until dismissed. */
export function useBanners(): Banners {
  const [success, setSuccess] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const showSuccess = useCallback((message: string) => {
    window.clearTimeout(timer.current);
    setError(null);
    setSuccess(message);
    timer.current = window.setTimeout(() => setSuccess(null), SUCCESS_BANNER_MS);
  }, []);
  const showError = useCallback((message: string) => {
    window.clearTimeout(timer.current);
    setSuccess(null);
    setError(message);
  }, []);
  const clearError = useCallback(() => setError(null), []);
  return { success, error, showSuccess, showError, clearError };
}
