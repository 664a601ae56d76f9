// The chat frame: a Preact page served at /widget/frame/ with hashed assets (cached for a year).
// Asset URLs are relative, so an installation behind a path prefix works too.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/frame',
  base: './',
  publicDir: false,
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: '../../dist/frame',
    emptyOutDir: true,
    target: 'es2020',
    // One entry, no dynamic imports: the preload polyfill would only add bytes.
    modulePreload: false,
    sourcemap: false,
    assetsInlineLimit: 0,
  },
});
