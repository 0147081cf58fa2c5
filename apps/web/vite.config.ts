import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dev server forwards API and live-socket traffic to a locally running server so the
// browser sees one origin, exactly as it does when the server hosts the built bundle.
const apiTarget = process.env.FIXDESK_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 900,
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
