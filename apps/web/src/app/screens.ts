import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { preloadBlotterGrids } from '../screens/blotter/gridChunks';
import type { RoutePath } from './routes';

/**
 * The component behind each route, loaded on first visit. Keyed by RoutePath, so a route
 * without a screen (or a screen without a route) does not compile.
 */
export const SCREENS: Record<RoutePath, LazyExoticComponent<ComponentType>> = {
  '/': lazy(() => import('../pages/landing/LandingPage')),
  '/login': lazy(() => import('../pages/login/LoginPage')),
  '/account': lazy(() => import('../pages/account/AccountPage')),
  '/privacy-policy': lazy(() => import('../pages/legal/PrivacyPolicyPage')),
  '/cookie-policy': lazy(() => import('../pages/legal/CookiePolicyPage')),
  '/terms': lazy(() => import('../pages/legal/TermsPage')),
  '/config/user-management': lazy(() => import('../pages/config/UserManagementPage')),
  '/orders': lazy(() => {
    preloadBlotterGrids();
    return import('../screens/blotter/BlotterPage');
  }),
  '/order-detail/:orderid': lazy(() => import('../screens/order-detail/OrderDetailPage')),
  '/fix-test-client': lazy(() => import('../screens/simulators/fix-test-client/FixTestClientPage')),
  '/fix-client': lazy(() => import('../screens/simulators/fix-client/FixClientPage')),
  '/broker-simulator': lazy(() => import('../screens/simulators/broker-simulator/BrokerSimulatorPage')),
};
