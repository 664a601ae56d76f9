// The agent web app's build (served by the API server from web/dist, server/src/http/web-app.ts)
// and its development server (`npm run dev` starts it with the server): it proxies the API and
// the socket to Parley at PARLEY_URL, default http://localhost:9000.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const target = process.env['PARLEY_URL'] ?? 'http://localhost:9000';

/**
 * Writes `.br` and `.gz` beside each script and style sheet of the build: the server answers
 * them to browsers that accept them (@fastify/static's preCompressed), compressed once at build
 * time at the highest levels rather than on every request.
 */
function precompress(): Plugin {
  return {
    name: 'parley-precompress',
    apply: 'build',
    closeBundle() {
      const assets = join(import.meta.dirname, 'dist', 'assets');
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const body = readFileSync(join(assets, name));
        writeFileSync(join(assets, `${name}.gz`), gzipSync(body, { level: 9 }));
        writeFileSync(join(assets, `${name}.br`), brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * The emoji font's style sheet offers each part as WOFF2 and WOFF: every browser the app supports
 * takes WOFF2, so the WOFF copies (14 MB) are left out of the build.
 */
function woff2Only(): Plugin {
  return {
    name: 'parley-woff2-only',
    enforce: 'pre',
    transform(code, id) {
      if (!/@fontsource\/noto-color-emoji\/.*\.css$/.test(id)) return null;
      return { code: code.replace(/,\s*url\([^)]*\.woff\) format\('woff'\)/g, ''), map: null };
    },
  };
}

export default defineConfig({
  plugins: [woff2Only(), react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The editor is heavy and used only in a conversation: its own chunk, loaded with that screen.
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        // React, the router and the query cache change less often than the app: their own chunk
        // stays cached across releases.
        manualChunks: (id: string) =>
          /node_modules\/(react|react-dom|scheduler|react-router|@tanstack\/(query-core|react-query))\//.test(id) ? 'vendor' : undefined,
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target, changeOrigin: true },
      // The chat frame, embedded by the live-chat settings' preview (same origin as the app).
      '/widget': { target, changeOrigin: true },
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
