import { useMediaQuery } from '@mantine/hooks';

/**
 * The desktop shell is the app running in its own window rather than a browser tab: either
 * installed from the browser (the manifest asks for display "standalone") or inside a native
 * wrapper, which identifies itself in the user agent (Electron does by default; a custom
 * wrapper appends "FixDeskDesktop/<version>"). It gets the compact bar, no footer and no
 * landing page.
 */
const DESKTOP_SHELL_QUERY = '(display-mode: standalone)';
const DESKTOP_USER_AGENT = /\b(?:Electron|FixDeskDesktop)\/\d/;

export function isDesktopUserAgent(userAgent: string): boolean {
  return DESKTOP_USER_AGENT.test(userAgent);
}

export function useDesktopShell(): boolean {
  const wrapped = typeof navigator !== 'undefined' && isDesktopUserAgent(navigator.userAgent);
  const standaloneNow = typeof window !== 'undefined' && window.matchMedia?.(DESKTOP_SHELL_QUERY).matches === true;
  const standalone = useMediaQuery(DESKTOP_SHELL_QUERY, standaloneNow, { getInitialValueInEffect: false });
  return wrapped || standalone;
}
