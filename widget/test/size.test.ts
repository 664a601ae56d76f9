// The widget's budgets: the loader every page of a customer's site pays for stays within 5 KB
// gzipped, the chat frame (page, script, styles) within 60 KB. Measured on the real build.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { FRAME_BUDGET, LOADER_BUDGET, type Sizes, widgetSizes } from '../scripts/size.ts';
import { ensureWidgetBuilt } from './build.ts';

describe('widget size budgets', { timeout: 200_000 }, () => {
  let sizes: Sizes;
  before(async () => {
    sizes = widgetSizes(await ensureWidgetBuilt());
  });

  it(`keeps the loader within ${LOADER_BUDGET / 1024} KB gzipped`, () => {
    assert.ok(sizes.loader.gzip > 500, 'the loader was measured');
    assert.ok(sizes.loader.gzip <= LOADER_BUDGET, `widget.js is ${sizes.loader.gzip} bytes gzipped`);
  });

  it(`keeps the chat frame within ${FRAME_BUDGET / 1024} KB gzipped`, () => {
    assert.ok(
      sizes.frame.files.some((f) => f.name.endsWith('.js')),
      'the frame script was measured',
    );
    assert.ok(sizes.frame.gzip <= FRAME_BUDGET, `the frame is ${sizes.frame.gzip} bytes gzipped`);
  });
});
