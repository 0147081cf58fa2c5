import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The dev server forwards API and live-socket traffic to a locally running server so the
// browser sees one origin, exactly as it does when the server hosts the built bundle.
const apiTarget = process.env.FIXDESK_API_URL ?? 'http://127.0.0.1:3000';

/**
 * main.tsx imports the app (src/app/App.tsx) dynamically so that its code is evaluated in a task of its
 * own; the page still asks for it and everything it imports at once, from the HTML, like the entry's own
 * imports, instead of only once the entry has run.
 */
function preloadAppFromHtml(): Plugin {
  return {
    name: 'fixdesk:preload-app-from-html',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        const app = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/app/App.tsx'));
        if (!html || html.type !== 'asset' || !app || app.type !== 'chunk')
          throw new Error('preload-app-from-html: index.html or the App chunk is missing');
        const files = new Set<string>();
        const css = new Set<string>();
        const visit = (name: string) => {
          const chunk = bundle[name];
          if (files.has(name) || !chunk || chunk.type !== 'chunk') return;
          files.add(name);
          for (const c of chunk.viteMetadata?.importedCss ?? []) css.add(c);
          chunk.imports.forEach(visit);
        };
        visit(app.fileName);
        const source = String(html.source);
        const links = [
          ...[...files].filter((f) => !source.includes(`/${f}"`)).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
          ...[...css].filter((f) => !source.includes(`/${f}"`)).map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
        ];
        html.source = source.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadAppFromHtml()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Source maps only for a debugging build (WEB_SOURCEMAP=1): the served app does not hand its
    // whole source to anyone who asks.
    sourcemap: process.env.WEB_SOURCEMAP === '1',
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        // A few chunks by library instead of dozens of tiny shared ones: the browser loads six files
        // at a time from one HTTP/1.1 server, so many small chunks queue behind each other, and each
        // library's start-up code runs in the task that first needs it (main.tsx stages them).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/].*\.[cm]?[jt]sx?$/, priority: 30 },
            { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/].*\.[cm]?[jt]sx?$/, priority: 30 },
            {
              name: 'ag-grid',
              test: /node_modules[\\/](ag-grid-community|ag-grid-react|ag-stack|ag-charts-types)[\\/].*\.[cm]?[jt]sx?$/,
              priority: 30,
            },
            // The charting library (docs/adr/0018): imported by the Insights screen only, so loaded with it only.
            { name: 'echarts', test: /node_modules[\\/](echarts|zrender)[\\/].*\.[cm]?[jt]sx?$/, priority: 30 },
            { name: 'zod', test: /(node_modules[\\/]zod|packages[\\/]protocol)[\\/].*\.[cm]?[jt]sx?$/, priority: 30 },
            { name: 'icons', test: /node_modules[\\/]@tabler[\\/].*\.[cm]?[jt]sx?$/, priority: 20 },
            {
              name: 'mantine',
              test: /node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-transition-group|use-sidecar|react-style-singleton|use-callback-ref|get-nonce|tslib|detect-node-es|@babel)[\\/].*\.[cm]?[jt]sx?$/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/ws': { target: apiTarget.replace(/^http/, 'ws'), ws: true, changeOrigin: false },
    },
  },
  preview: { host: '127.0.0.1', port: 4173 },
});
