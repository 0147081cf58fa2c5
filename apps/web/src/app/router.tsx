import { Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageLoader } from '../components/layout/PageLoader';
import { NotFoundPage } from '../screens/errors/NotFoundPage';
import { RouteErrorPage } from '../screens/errors/RouteErrorPage';
import { AppLayout } from './AppLayout';
import { RouteGuard } from './RouteGuard';
import { ROUTES } from './routes';
import { SCREENS } from './screens';

const screenRoutes: RouteObject[] = ROUTES.map((route) => {
  const Screen = SCREENS[route.path];
  return {
    path: route.path,
    element: (
      <RouteGuard route={route}>
        <Suspense fallback={<PageLoader />}>
          <Screen />
        </Suspense>
      </RouteGuard>
    ),
  };
});

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [...screenRoutes, { path: '*', element: <NotFoundPage /> }],
  },
]);
