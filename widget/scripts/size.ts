// The widget's sizes as a browser downloads them (gzip, level 9, as the server sends them):
// the loader every page pays for, and the chat frame (its page, script and styles) paid once
// the chat opens. `npm run size -w widget` prints them; widget/test/size.test.ts holds the budgets.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
export const LOADER_BUDGET = 5 * 1024;
export const FRAME_BUDGET = 60 * 1024;

export interface Sizes {
  loader: { raw: number; gzip: number };
  frame: { raw: number; gzip: number; files: Array<{ name: string; raw: number; gzip: number }> };
}

function measure(path: string) {
  const body = readFileSync(path);
  return { raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
}

export function widgetSizes(dist = DIST): Sizes {
  const files = [
    join('frame', 'index.html'),
    ...readdirSync(join(dist, 'frame', 'assets')).map((name) => join('frame', 'assets', name)),
  ].map((name) => ({ name, ...measure(join(dist, name)) }));
  return {
    loader: measure(join(dist, 'widget.js')),
    frame: { raw: files.reduce((s, f) => s + f.raw, 0), gzip: files.reduce((s, f) => s + f.gzip, 0), files },
  };
}

if (import.meta.main) {
  const sizes = widgetSizes();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`loader widget.js: ${kb(sizes.loader.raw)}, gzip ${kb(sizes.loader.gzip)} (budget ${kb(LOADER_BUDGET)})`);
  for (const file of sizes.frame.files) console.log(`  ${file.name}: ${kb(file.raw)}, gzip ${kb(file.gzip)}`);
  console.log(`chat frame total: ${kb(sizes.frame.raw)}, gzip ${kb(sizes.frame.gzip)} (budget ${kb(FRAME_BUDGET)})`);
}
