import { useMediaQuery } from '@mantine/hooks';

/**
 * The desktop shell is the app installed as a standalone window (its manifest asks for
 * display "standalone"). It gets the compact bar, no footer and no landing page.
 */
export const DESKTOP_SHELL_QUERY = '(display-mode: standalone)';

export function useDesktopShell(): boolean {
  const initial = typeof window !== 'undefined' && window.matchMedia?.(DESKTOP_SHELL_QUERY).matches === true;
  return useMediaQuery(DESKTOP_SHELL_QUERY, initial, { getInitialValueInEffect: false });
}
