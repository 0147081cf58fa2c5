import { notifications } from '@mantine/notifications';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PRODUCT_NAME } from '../config/product';
import { useAuth } from '../services/auth/AuthProvider';
import { roleOf } from '../services/auth/roles';
import { decideAccess, originFrom, type SignInState } from './access';
import { HOME_PATH, LOGIN_PATH, type RouteSpec } from './routes';

/** Applies a route's access rule, then renders the screen with its page title. */
export function RouteGuard({ route, children }: { route: RouteSpec; children: ReactNode }) {
  const { status, user } = useAuth();
  const location = useLocation();
  const decision = decideAccess(route.access, status, user ? roleOf(user) : null);

  useEffect(() => {
    if (decision.kind === 'forbidden') {
      notifications.show({
        id: 'route-forbidden',
        color: 'orange',
        title: 'Not available for your role',
        message: `${route.title} is restricted. You have been returned to the home page.`,
      });
    }
  }, [decision.kind, route.title]);

  switch (decision.kind) {
    case 'signIn': {
      const state: SignInState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
      return <Navigate to={LOGIN_PATH} replace state={state} />;
    }
    case 'forbidden':
      return <Navigate to={decision.redirectTo} replace />;
    case 'alreadySignedIn':
      return <Navigate to={originFrom(location.state) ?? HOME_PATH} replace />;
    case 'allow':
      return (
        <>
          <title>{route.path === HOME_PATH ? `${PRODUCT_NAME} · ${route.title}` : `${route.title} · ${PRODUCT_NAME}`}</title>
          {children}
        </>
      );
  }
}
