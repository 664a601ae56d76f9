// The loader, /widget.js: one small IIFE with no framework, at a stable URL (cached briefly by
// the server), that draws the launcher and opens the chat frame. Built after the frame, into
// the same dist/ without emptying it.
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2019',
    minify: 'esbuild',
    sourcemap: false,
    lib: { entry: 'src/loader.ts', formats: ['iife'], name: 'ParleyLoader', fileName: () => 'widget.js' },
  },
});
