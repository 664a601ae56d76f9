// `npm start`'s build check (server/scripts/ensure-built.ts): a workspace is rebuilt when its
// dist/ is missing, empty, or older than its own sources or than a folder it lists in
// `parley.buildInputs` (the web app bundles the widget's launcher-look.ts for its preview).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildInputs, staleReason } from '../scripts/ensure-built.ts';

describe('ensure-built: what is stale', () => {
  const root = mkdtempSync(join(tmpdir(), 'parley-ensure-built-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, at: number) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'x');
    utimesSync(path, at, at);
  };
  const T = 1_700_000_000;

  it('is up to date with a dist newer than its sources and inputs, and stale when an input changes', () => {
    const web = join(root, 'web');
    const widget = join(root, 'widget', 'src');
    writeFileSync(join(root, 'placeholder'), '');
    mkdirSync(web, { recursive: true });
    writeFileSync(join(web, 'package.json'), JSON.stringify({ name: 'web', parley: { buildInputs: ['../widget/src'] } }));
    utimesSync(join(web, 'package.json'), T, T);
    write(join(web, 'src', 'main.tsx'), T);
    write(join(widget, 'launcher-look.ts'), T);
    write(join(web, 'dist', 'index.html'), T + 10);
    assert.deepEqual(buildInputs(web), [widget]);
    assert.equal(staleReason(web), null);

    write(join(widget, 'launcher-look.ts'), T + 20);
    assert.match(staleReason(web) ?? '', /widget\/src changed since the last build/);

    write(join(web, 'dist', 'index.html'), T + 30);
    assert.equal(staleReason(web), null);
    write(join(web, 'src', 'main.tsx'), T + 40);
    assert.equal(staleReason(web), 'its sources changed since the last build');
  });

  it('says when dist is missing or empty, and lists no inputs without the field', () => {
    const plain = join(root, 'plain');
    mkdirSync(plain, { recursive: true });
    writeFileSync(join(plain, 'package.json'), '{"name":"plain"}');
    assert.deepEqual(buildInputs(plain), []);
    assert.equal(staleReason(plain), 'dist/ is missing');
    mkdirSync(join(plain, 'dist'));
    assert.equal(staleReason(plain), 'dist/ is empty');
  });
});
