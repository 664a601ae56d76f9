// The migrated image of the embedded database: a PGlite data directory with every migration
// applied and the built-in data written, as one tar file. Creating an embedded database from
// scratch (initdb inside WebAssembly, then every migration) takes many seconds; loading the image
// takes a fraction of it. `npm install` makes it (the root `build` script), `npm start` makes it
// when missing, a first start loads it, and tests start every in-memory database from it.
//
// Its name carries a hash of the migrations' text and of the PGlite version, so a changed
// migration or another PGlite never meets an old image. It is written whole (renamed into place),
// so processes reading it at the same time never see half of one.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

/** Where the image lives: beside the server's sources, ignored by git. */
export const IMAGE_DIR = resolve(import.meta.dirname, '..', '..', '.cache');
const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

let pathMemo: string | null = null;

/** The image file for these migrations and this PGlite, whether it exists or not. */
export function migratedImagePath(): string {
  if (pathMemo) return pathMemo;
  const hash = createHash('sha256');
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(readFileSync(join(pglite, '..', '..', 'package.json')));
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) hash.update(name).update(readFileSync(join(MIGRATIONS_DIR, name)));
  pathMemo = join(IMAGE_DIR, `parley-db-${hash.digest('hex').slice(0, 16)}.tar`);
  return pathMemo;
}

/** The image, or null when it has not been made for these migrations. */
export function readMigratedImage(): Blob | null {
  const path = migratedImagePath();
  return existsSync(path) ? new Blob([readFileSync(path)]) : null;
}

/** Stores a freshly dumped image (written to a side file, then renamed into place). */
export async function writeMigratedImage(image: Blob): Promise<void> {
  const path = migratedImagePath();
  mkdirSync(IMAGE_DIR, { recursive: true });
  const partial = `${path}.${process.pid}.part`;
  writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
  renameSync(partial, path);
}
