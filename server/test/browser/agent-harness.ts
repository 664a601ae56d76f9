// What the agent-side browser tests start with: a Parley, Chromium, Ann (an agent with the
// Agent role and a password) and a "Website chat" inbox. On a failure part way, what had started
// is closed again.
import type { Browser, Page } from 'playwright-core';
import { createInbox } from '../factories.ts';
import type { Caller } from '../helpers.ts';
import { launchBrowser, startWebServer, type WebServer } from '../browser.ts';
import { signIn } from './admin-harness.ts';

export const AGENT_PASSWORD = 'correct horse battery';

export interface AgentDesk {
  server: WebServer;
  browser: Browser;
  ann: Caller;
  inboxId: number;
  /** Signs `page` in as Ann and waits for her conversation list. */
  signedIn(page: Page): Promise<void>;
  /** Closes the browser, then the server. */
  close(): Promise<void>;
}

export async function agentDesk(): Promise<AgentDesk> {
  const server = await startWebServer();
  let browser: Browser | undefined;
  try {
    const ann = await server.t.makeAgent({ roles: ['Agent'], first_name: 'Ann', email: 'ann@example.com', password: AGENT_PASSWORD });
    const inboxId = (await createInbox(server.t, { name: 'Website chat' })).id;
    browser = await launchBrowser();
    const opened = browser;
    return {
      server,
      browser: opened,
      ann,
      inboxId,
      async signedIn(page) {
        await signIn(page, ann.email, AGENT_PASSWORD);
        await page.getByRole('list', { name: 'Conversation list' }).waitFor();
      },
      async close() {
        await opened.close();
        await server.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await server.close();
    throw error;
  }
}
