import { type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PRODUCT_NAME } from '../config/product';
import { useAuth } from '../services/auth/AuthProvider';
import { roleOf } from '../services/auth/roles';
import { decideAccess, forbiddenNotice, originFrom, type ForbiddenState, type SignInState } from './access';
import { HOME_PATH, LOGIN_PATH, type RouteSpec } from './routes';

/** Applies a route's access rule, then renders the screen with its page title. */
export function RouteGuard({ route, children }: { route: RouteSpec; children: ReactNode }) {
  const { status, user } = useAuth();
  const location = useLocation();
  const decision = decideAccess(route.access, status, user ? roleOf(user) : null);

  switch (decision.kind) {
    case 'signIn': {
      const state: SignInState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
      return <Navigate to={LOGIN_PATH} replace state={state} />;
    }
    case 'forbidden': {
      // Spec 000 §2 sends the visitor to `/`; the page there says why (a notice, not a silent bounce).
      const state: ForbiddenState = {
        forbidden: forbiddenNotice(route.title, route.access.kind === 'signedIn' ? (route.access.roles ?? []) : []),
      };
      return <Navigate to={decision.redirectTo} replace state={state} />;
    }
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
