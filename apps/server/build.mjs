// Bundles the server and our workspace packages (TypeScript source) into dist/main.js.
// Third-party packages stay external and load from node_modules (argon2 is native, PGlite ships WASM).
import { existsSync } from 'node:fs';
import { build } from 'esbuild';

const externalThirdParty = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@fixdesk/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: Object.fromEntries(
    [
      ['main', 'src/main.ts'],
      ['fix-conformance', 'src/fix-conformance.ts'],
    ].filter(([, p]) => existsSync(p)),
  ),
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalThirdParty],
  entryNames: '[name]',
}).catch(() => process.exit(1));
