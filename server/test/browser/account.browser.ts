// The account page in a real browser (docs/api.md, "Sessions"): an agent signed in from several
// browsers sees each of them, signs one out or all the others, and changes the password; the
// browsers signed out are sent to sign-in on their next request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  browserMissing,
  describeViolations,
  launchBrowser,
  newPage,
  pageErrors,
  seriousViolations,
  startWebServer,
  type WebServer,
} from '../browser.ts';
import type { Caller } from '../helpers.ts';
import { signIn } from './admin-harness.ts';

const PASSWORD = 'correct horse battery';

describe('account settings in a browser', { skip: browserMissing() ?? false, timeout: 240_000 }, () => {
  let server: WebServer;
  let browser: Browser;
  let ann: Caller;
  let password = PASSWORD;
  const contexts: BrowserContext[] = [];

  before(async () => {
    server = await startWebServer();
    browser = await launchBrowser();
    ann = await server.t.makeAgent({ roles: ['Agent'], first_name: 'Ann', email: 'ann@example.com', password: PASSWORD });
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
  });

  /** A new browser (its own cookies) signed in as Ann, on the account page. */
  const signedInBrowser = async (): Promise<Page> => {
    const { page, context } = await newPage(browser, server.base);
    contexts.push(context);
    await signIn(page, ann.email, password, '/account');
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();
    return page;
  };
  const sessionList = (page: Page) => page.getByRole('list', { name: 'Your sessions' });
  const sessionItems = (page: Page) => sessionList(page).getByRole('listitem');
  /**
   * The page is sent to sign-in by itself: its agent socket is closed (1008) when its session
   * ends, the app then asks who it is, and the 401 goes to the sign-in page. Its next request
   * (a reload) is refused too.
   */
  const sentToSignIn = async (page: Page) => {
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    assert.equal((await page.request.get('/api/v1/agents/me')).status(), 401);
  };
  const stillSignedIn = async (page: Page) => {
    const me = await page.request.get('/api/v1/agents/me');
    assert.equal(me.status(), 200);
  };

  it('lists both browsers with "This device" on one, and signs the other out from the first', async () => {
    const laptop = await signedInBrowser();
    const phone = await signedInBrowser();
    await laptop.reload();
    await sessionItems(laptop).nth(1).waitFor();
    assert.equal(await sessionItems(laptop).count(), 2);
    const current = sessionItems(laptop).filter({ hasText: 'This device' });
    assert.equal(await current.count(), 1, 'one session is this device');
    const texts = await sessionItems(laptop).allInnerTexts();
    for (const text of texts) {
      assert.match(text, /Chrome on Linux/, 'the device, read from the user agent');
      assert.match(text, /From 127\.0\.0\.1/, 'the address');
      assert.match(text, /Active (just now|\d+ min ago)/, 'the last activity, relative');
    }
    assert.equal(await current.getByRole('button').count(), 0, 'the current session has no sign-out button here');
    const violations = await seriousViolations(laptop, [], ['#account-sessions']);
    assert.deepEqual(violations, [], describeViolations(violations));

    await sessionItems(laptop).filter({ hasNotText: 'This device' }).getByRole('button', { name: 'Sign out Chrome on Linux' }).click();
    await laptop.getByText('Signed out Chrome on Linux', { exact: true }).waitFor();
    await laptop.getByText('You are signed in only here.').waitFor();
    assert.equal(await sessionItems(laptop).count(), 1);

    await sentToSignIn(phone);
    await stillSignedIn(laptop);
    assert.deepEqual(pageErrors(laptop), []);
  });

  it('signs every other browser out at once, after a confirmation', async () => {
    const laptop = await signedInBrowser();
    const others = [await signedInBrowser(), await signedInBrowser()];
    await laptop.reload();
    await sessionItems(laptop).nth(others.length).waitFor();
    const count = await sessionItems(laptop).count();
    await laptop.getByRole('button', { name: 'Sign out all other sessions' }).click();
    const dialog = laptop.getByRole('dialog');
    await dialog.getByText(`Your ${count - 1} other sessions are signed out at once`).waitFor();
    await dialog.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await laptop.getByText(`${count - 1} other sessions signed out`, { exact: true }).waitFor();
    await laptop.getByText('You are signed in only here.').waitFor();
    for (const page of others) await sentToSignIn(page);
    await stillSignedIn(laptop);
    assert.equal(await laptop.getByRole('button', { name: 'Sign out all other sessions' }).count(), 0, 'nothing left to sign out');
  });

  it('changes the password from the account page: the other browser is signed out, the new password signs in', async () => {
    const laptop = await signedInBrowser();
    const phone = await signedInBrowser();
    const next = 'a brand new passphrase';
    await laptop.getByLabel('Current password').fill(password);
    await laptop.getByLabel('New password').fill(next);
    await laptop.getByRole('button', { name: 'Change password' }).click();
    await laptop.getByText('Password changed; your other sessions were signed out', { exact: true }).waitFor();
    password = next;
    await sentToSignIn(phone);
    await stillSignedIn(laptop);
    await laptop.reload();
    await sessionItems(laptop).first().waitFor();
    assert.equal(await sessionItems(laptop).count(), 1, 'only this browser is left');
    // The old password is refused, the new one signs in.
    await phone.getByLabel('Email').fill(ann.email);
    await phone.getByLabel('Password').fill(PASSWORD);
    await phone.getByRole('button', { name: 'Sign in', exact: true }).click();
    await phone.getByRole('alert').waitFor();
    assert.equal(new URL(phone.url()).pathname, '/login');
    await signIn(phone, ann.email, next, '/account');
    await sessionItems(phone).nth(1).waitFor();
    assert.deepEqual(pageErrors(laptop), []);
  });
});
