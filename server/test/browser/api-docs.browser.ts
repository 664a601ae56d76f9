// The API's documentation page (/api/docs) in a real browser under its CSP: Swagger UI renders the
// operations with no CSP refusal or page error, and another site cannot frame it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, newPage, startWebServer, type WebServer } from '../browser.ts';

const skip = browserMissing() ?? false;

describe('the API documentation page', { skip }, () => {
  let server: WebServer;
  let browser: Browser;
  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the operations under its CSP', async () => {
    const { page, errors, context } = await newPage(browser, server.base);
    await page.goto('/api/docs/');
    await page.getByText('Log in with email and password').waitFor();
    await page.getByText('List agents (paged)').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('may not be framed by another page', async () => {
    const { page, errors, context } = await newPage(browser, server.base);
    await page.route('http://framer.test/', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<iframe id="docs" src="${server.base}/api/docs/"></iframe>` }),
    );
    await page.goto('http://framer.test/');
    await page.waitForTimeout(1000);
    const framed = page.frames().find((frame) => frame.url().includes('/api/docs'));
    const rendered = framed ? await framed.locator('#swagger-ui').count() : 0;
    assert.equal(rendered, 0, 'the documentation rendered inside another site');
    assert.ok(errors.some((error) => /frame-ancestors|refused to (display|frame)/i.test(error)) || !framed, errors.join('\n'));
    await context.close();
  });
});
