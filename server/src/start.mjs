// The process entry of `npm start`, the image and the systemd unit: turns on Node's module
// compile cache, then runs main.ts. Plain JavaScript on purpose: the cache must be on before
// the first TypeScript file loads.
//
// With the cache warm, Node neither strips the types of the server's files again nor compiles
// them from scratch. Above all, its TypeScript stripper (a WebAssembly build of swc) never
// loads: memory a running server would otherwise keep for nothing (docs/operations.md,
// "Memory"). `npm run build` and the image's build fill the cache (`--warm-compile-cache`, with
// the Node flags of `npm start`: Node keys the cache by the flags and the user), and every start
// adds what is missing. Entries are keyed by each file's content: a changed file is compiled
// again, never served stale. A cache that cannot be used changes nothing but speed and memory.
//
// The directory: NODE_COMPILE_CACHE when set (Node then turns the cache on itself), else
// server/.cache/compile beside the embedded database's image.
import module from 'node:module';
import { join } from 'node:path';

const cache = module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE || join(import.meta.dirname, '../.cache/compile'));
if (cache && cache.status === module.constants.compileCacheStatus.FAILED) {
  process.stderr.write(`parley: Node's compile cache is off (${cache.message}); the server starts without it\n`);
}

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
