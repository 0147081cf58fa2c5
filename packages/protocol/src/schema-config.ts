import { z } from 'zod';

// In a browser the schemas run without compiled validators: the app's Content-Security-Policy allows
// no eval, and zod's probe for it, though caught, would be reported as a violation. The
// server keeps zod's compiled validators. Imported first by index.ts, before any schema is built.
if ('window' in globalThis) z.config({ jitless: true });
