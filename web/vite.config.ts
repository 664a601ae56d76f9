// The agent web app's build (served by the API server from web/dist, server/src/http/web-app.ts)
// and its development server: `npm run dev` proxies the API and the socket to a running Parley
// (PARLEY_URL, default http://localhost:9000), so start one with `npm start` beside it.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const target = process.env['PARLEY_URL'] ?? 'http://localhost:9000';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The editor is heavy and used only in a conversation: its own chunk, loaded with that screen.
    chunkSizeWarningLimit: 700,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target, changeOrigin: true },
      // The socket accepts a session cookie only from BASE_URL's origin: present the proxied origin.
      '/ws': {
        target,
        ws: true,
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on('proxyReqWs', (request) => request.setHeader('origin', new URL(target).origin));
        },
      },
    },
  },
});
