// The frame's API types are generated from the server's OpenAPI document
// (widget/scripts/api-types.ts): this fails when a widget route or shape changed and the
// generated file was not written again (`npx node widget/scripts/api-types.ts`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { GENERATED, generateApiTypes } from '../scripts/api-types.ts';

it('widget/src/frame/api.gen.ts matches the OpenAPI document', { timeout: 120_000 }, async () => {
  const fresh = await generateApiTypes();
  assert.ok(fresh.includes('ChatMessage'), 'the document has the widget shapes');
  assert.equal(readFileSync(GENERATED, 'utf8'), fresh, 'run `npx node widget/scripts/api-types.ts`');
});
