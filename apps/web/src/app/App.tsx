import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { RouterProvider } from 'react-router/dom';
import { theme } from '../theme';
import { router } from './router';

/** The whole app under its providers: Mantine (theme, toasts) around the router. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      {/* Bottom right: at the top they covered the user menu and the Order Info status badge. */}
      <Notifications position="bottom-right" limit={4} autoClose={5000} zIndex={400} />
      <RouterProvider router={router} />
    </MantineProvider>
  );
}
