// The process entry of `npm start`, the image and the systemd unit: turns on Node's module
// compile cache, then runs main.ts. Plain JavaScript on purpose: the cache must be on before
// the first TypeScript file loads.
//
// With the cache warm, Node neither strips the types of the server's files again nor compiles
// them from scratch. Above all, its TypeScript stripper (a WebAssembly build of swc) never
// loads: about 18 MB of resident memory that a running server would otherwise keep for nothing
// (docs/performance.md, "Memory"). The first start fills the cache; the image fills it when it
// is built (`node server/src/start.mjs --warm-compile-cache`). Entries are keyed by each file's
// content: a changed file is compiled again, never served stale. A cache that cannot be written
// (a read-only directory) is only read; one that cannot be used at all changes nothing but speed.
//
// The directory: NODE_COMPILE_CACHE when set (Node then turns the cache on itself), else
// server/.cache/compile beside the embedded database's image.
import module from 'node:module';
import { join } from 'node:path';

module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE || join(import.meta.dirname, '../.cache/compile'));

if (process.argv.includes('--warm-compile-cache')) {
  // Every TypeScript file a server may load: main.ts and what it imports, and those imported on demand.
  await import('./main.ts');
  await import('./media/media.storage-s3.ts');
  module.flushCompileCache?.();
} else {
  const { main } = await import('./main.ts');
  await main();
  // Written now, while the server runs: a process killed later has still filled the cache.
  module.flushCompileCache?.();
}
