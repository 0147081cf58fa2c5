import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { preloadBlotterGrids } from '../screens/blotter/gridChunks';
import type { RoutePath } from './routes';

/** The blotter screen, with its grids' chunks requested alongside (they download in parallel). */
function loadBlotter() {
  preloadBlotterGrids();
  return import('../screens/blotter/BlotterPage');
}

/**
 * The Insights screen, its first figures asked for alongside: they travel while its code downloads
 * (askFirstFigures; called again by the route's first render, it asks nothing twice).
 */
function loadInsights() {
  void import('../screens/insights/askFirstFigures').then(({ askFirstFigures }) => askFirstFigures());
  return import('../screens/insights/InsightsPage');
}

/**
 * The desk's main screen (and the Insights screen, with its figures) are worth requesting before the
 * app's first render when the page opens on one (a reload, the installed app's start page, a link):
 * its chunks then download while the app's own code runs, instead of after its first render. Loading
 * twice is free; the module system keeps one copy.
 */
export function preloadScreenFor(pathname: string): void {
  if (pathname === '/orders') loadBlotter().catch(() => undefined);
  if (pathname === '/insights') loadInsights().catch(() => undefined);
}

/**
 * The component behind each route, loaded on first visit. Keyed by RoutePath, so a route
 * without a screen (or a screen without a route) does not compile.
 */
export const SCREENS: Record<RoutePath, LazyExoticComponent<ComponentType>> = {
  '/': lazy(() => import('../screens/landing/LandingPage')),
  '/login': lazy(() => import('../screens/login/LoginPage')),
  '/account': lazy(() => import('../screens/account/AccountPage')),
  '/privacy-policy': lazy(() => import('../screens/legal/PrivacyPolicyPage')),
  '/cookie-policy': lazy(() => import('../screens/legal/CookiePolicyPage')),
  '/terms': lazy(() => import('../screens/legal/TermsPage')),
  '/config/user-management': lazy(() => import('../screens/user-management/UserManagementPage')),
  '/config/broker-information': lazy(() => import('../screens/broker-information/BrokerInformationScreen')),
  '/config/security-master': lazy(() => import('../screens/security-master/SecurityMasterScreen')),
  '/config/fix-client-defaults': lazy(() => import('../screens/fix-client-defaults/FixClientDefaultsScreen')),
  '/config/fix-message-specs': lazy(() => import('../screens/fix-message-specs/FixMessageSpecsScreen')),
  '/config/client-connectors': lazy(() => import('../screens/client-connectors/ClientConnectorsScreen')),
  '/config/client-sessions': lazy(() => import('../screens/client-sessions/ClientSessionsScreen')),
  '/config/client-capabilities': lazy(() => import('../screens/client-capabilities/ClientCapabilitiesScreen')),
  '/orders': lazy(loadBlotter),
  '/order-detail/:orderid': lazy(() => import('../screens/order-detail/OrderDetailPage')),
  '/order-actions': lazy(() => import('../screens/order-actions/OrderActionsPage')),
  '/fix-messages': lazy(() => import('../screens/fix-messages/FixMessagesPage')),
  // The charting library comes with this chunk only (docs/adr/0018).
  '/insights': lazy(loadInsights),
  '/fix-test-client': lazy(() => import('../screens/simulators/fix-test-client/FixTestClientPage')),
  '/fix-client': lazy(() => import('../screens/simulators/fix-client/FixClientPage')),
  '/fix-specification': lazy(() => import('../screens/fix-specification/FixSpecificationPage')),
  '/service-status': lazy(() => import('../screens/service-status/ServiceStatusPage')),
  '/axes': lazy(() => import('../screens/axes/AxesPage')),
  '/broker-simulator': lazy(() => import('../screens/simulators/broker-simulator/BrokerSimulatorPage')),
};
