// docs/performance.md is rewritten by section: a run keeps what it did not measure.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { REALTIME_END, REALTIME_START } from './realtime-report.ts';
import { writeReport } from './report.ts';

const dir = mkdtempSync(join(tmpdir(), 'parley-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const realtime = (n: number) => `${REALTIME_START}\n\n## Realtime ${n}\n\n${REALTIME_END}`;

test('the HTTP results, the Realtime section and the notes are each kept when a run does not rewrite them', () => {
  const file = join(dir, 'performance.md');
  writeFileSync(file, '# Performance\n\n## Results 0\n\n## What is measured\n\nold method\n');
  writeReport(file, '# Performance\n\n## Results 1', realtime(1));
  let text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 1\n\n<!-- realtime.*\n\n## Realtime 1\n\n<!-- \/realtime -->\n\n## What is measured/);
  assert.doesNotMatch(text, /Results 0|old method/);

  text = text.replace(/(<!-- Notes:.*-->\n)/, '$1\nMy notes.\n');
  writeFileSync(file, text);

  writeReport(file, null, realtime(2));
  text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 1/, 'a realtime-only run keeps the HTTP results');
  assert.match(text, /## Realtime 2/);
  assert.doesNotMatch(text, /## Realtime 1/);
  assert.match(text, /My notes\./);

  writeReport(file, '# Performance\n\n## Results 3', null);
  text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 3/);
  assert.match(text, /## Realtime 2/, 'an HTTP-only run keeps the Realtime section');
  assert.match(text, /My notes\./);
  assert.equal(text.split(REALTIME_START).length, 2, 'one Realtime section');
});
