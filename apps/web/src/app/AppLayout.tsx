import { Box } from '@mantine/core';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { CookieBanner } from '../components/consent/CookieBanner';
import { SiteFooter } from '../components/footer/SiteFooter';
import { CompactNavBar } from '../components/nav/CompactNavBar';
import { MainNavBar } from '../components/nav/MainNavBar';
import { AuthProvider } from '../services/auth/AuthProvider';
import { chromeFor } from './chrome';
import { useDesktopShell } from './desktopShell';

/** The frame around every screen: bar, content, footer and the cookie banner. */
function Frame() {
  const { pathname } = useLocation();
  const chrome = chromeFor(pathname, useDesktopShell());
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <a href="#main-content" className="fd-skip-link">
        Skip to content
      </a>
      {chrome.topNav === 'main' && <MainNavBar />}
      {chrome.topNav === 'compact' && <CompactNavBar />}
      <Box component="main" id="main-content" tabIndex={-1} style={{ flex: 1, display: 'flex', flexDirection: 'column', outline: 'none' }}>
        <Outlet />
      </Box>
      {chrome.footer && <SiteFooter />}
      <CookieBanner />
    </Box>
  );
}

export function AppLayout() {
  return (
    <AuthProvider>
      <Frame />
      <ScrollRestoration />
    </AuthProvider>
  );
}
