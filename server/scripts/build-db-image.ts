// Makes the migrated image of the embedded database (server/src/db/image.ts) when it is missing,
// so a first `npm start` on an empty DATA_DIR loads it instead of creating and migrating a
// database (seconds instead of tens of seconds on a small machine). Run by `npm install` (through
// the root `build` script) and by `npm start` (ensure-built.ts).
import { migratedImagePath, readMigratedImage } from '../src/db/image.ts';
import { ensureMigratedImage } from '../src/setup.ts';

/** Makes the image when missing; returns whether it had to. */
export async function buildDatabaseImage(log: (line: string) => void): Promise<boolean> {
  if (readMigratedImage() !== null) return false;
  const started = performance.now();
  log('parley: making the migrated image of the embedded database…');
  await ensureMigratedImage();
  log(`parley: made ${migratedImagePath()} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (import.meta.main) {
  await buildDatabaseImage((line) => process.stdout.write(`${line}\n`));
}
