import '@fontsource-variable/inter';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles/global.css';

import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';

/*
 * Start-up in several short tasks instead of one long one (no task over 100 ms while the
 * blotter loads). A page's module scripts are evaluated in one go, imports and all, so:
 *  1. this entry holds only React and React DOM;
 *  2. the screen the page opens on has its chunks requested from a small module of its own
 *     (inserting their preload links is work of its own), after this task;
 *  3. the shared HTTP/WS schemas (@fixdesk/protocol with zod, built when their module runs) are
 *     evaluated in a task of their own;
 *  4. then the app (Mantine, the router, the frame), a module graph of its own. Everything is
 *     requested from the HTML (vite.config.ts), so nothing waits for the previous step to download;
 *  5. the first render is a transition, which React renders in slices of a few milliseconds
 *     instead of one task, and commits on its own.
 */
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
const app = import('@fixdesk/protocol').then(() => import('./app/App'));

setTimeout(() => {
  const pathname = window.location.pathname;
  import('./app/screens').then(({ preloadScreenFor }) => preloadScreenFor(pathname)).catch(() => undefined);
}, 0);

app
  .then(({ App }) => {
    startTransition(() => {
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  })
  .catch((error: unknown) => {
    // Without its code the app cannot show anything else; say so instead of a blank page.
    container.textContent = `The app could not load (${error instanceof Error ? error.message : String(error)}). Reload the page to try again.`;
    throw error;
  });
