/**
 * Which page chrome a location gets (spec 000 §2, 001 §2): the full-screen work screens
 * drop the footer, the axes board drops the top navigation too, and the desktop shell
 * uses the compact bar and never shows the footer.
 */
const PATHS_WITHOUT_TOP_NAV: readonly string[] = ['/axes'];
const PATHS_WITHOUT_FOOTER: readonly string[] = ['/orders', '/axes', '/fix-client'];
/** Work screens addressed by id: the order detail fills the window like the blotter's panel. */
const PATH_PREFIXES_WITHOUT_FOOTER: readonly string[] = ['/order-detail/'];

export interface PageChrome {
  topNav: 'main' | 'compact' | 'none';
  footer: boolean;
}

function normalise(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

export function chromeFor(pathname: string, desktopShell: boolean): PageChrome {
  const path = normalise(pathname);
  const topNav = PATHS_WITHOUT_TOP_NAV.includes(path) ? 'none' : desktopShell ? 'compact' : 'main';
  const footer =
    !desktopShell && !PATHS_WITHOUT_FOOTER.includes(path) && !PATH_PREFIXES_WITHOUT_FOOTER.some((prefix) => path.startsWith(prefix));
  return { topNav, footer };
}
