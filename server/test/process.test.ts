// Starts the real server process (the `npm start` path), uses it like an operator
// would, kills it with SIGKILL right after a burst of acknowledged writes, restarts
// it, and checks that every acknowledged write is still there. Runs on the
// embedded database always and on PostgreSQL when DATABASE_URL is set.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  baseEnv,
  cliScript,
  freePort,
  killHard,
  mainScript,
  runScript,
  type Started,
  startServer as start,
  stopGracefully,
  withScratchDatabase,
} from './process-helpers.ts';

function cookiesOf(res: Response): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    jar[pair!.slice(0, eq)] = pair!.slice(eq + 1);
  }
  return jar;
}

async function scenario(env: Record<string, string>): Promise<void> {
  const adminEmail = 'owner@example.com';
  const adminPassword = 'correct horse battery';
  const first = await start({ ...env, ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: adminPassword });
  let current: Started | null = first;
  try {
    // Log in as the first admin, created from the environment.
    const login = await fetch(`${first.base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'OWNER@example.com', password: adminPassword }),
    });
    assert.equal(login.status, 200, await login.clone().text());
    const admin = ((await login.json()) as { data: { id: number; roles: string[] } }).data;
    assert.deepEqual(admin.roles, ['Admin']);
    const jar = cookiesOf(login);
    assert.ok(jar['parley_session'] && jar['csrf_token']);
    const cookie = `parley_session=${jar['parley_session']}; csrf_token=${jar['csrf_token']}`;

    // Mint API credentials with the session (CSRF header required).
    const refused = await fetch(`${first.base}/api/v1/agents/${admin.id}/api-key`, { method: 'POST', headers: { cookie } });
    assert.equal(refused.status, 403);
    const minted = await fetch(`${first.base}/api/v1/agents/${admin.id}/api-key`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': jar['csrf_token']! },
    });
    assert.equal(minted.status, 200);
    const pair = ((await minted.json()) as { data: { api_key: string; api_secret: string } }).data;
    const basic = 'Basic ' + Buffer.from(`${pair.api_key}:${pair.api_secret}`).toString('base64');
    const token = `token ${pair.api_key}:${pair.api_secret}`;
    for (const authorization of [basic, token]) {
      const me = await fetch(`${first.base}/api/v1/agents/me`, { headers: { authorization } });
      assert.equal(me.status, 200);
      assert.equal(((await me.json()) as { data: { email: string } }).data.email, adminEmail);
    }

    // A burst of acknowledged writes, then SIGKILL with no warning.
    const names = Array.from({ length: 40 }, (_, i) => `burst-${i}-${randomBytes(3).toString('hex')}`);
    const acknowledged: string[] = [];
    await Promise.all(
      names.map(async (name) => {
        const res = await fetch(`${first.base}/api/v1/tags`, {
          method: 'POST',
          headers: { authorization: token, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        if (res.status === 200) acknowledged.push(name);
      }),
    );
    assert.equal(acknowledged.length, names.length);
    if (!env['DATABASE_URL']) {
      // The embedded database belongs to the running server: the CLI is refused, and says what to do instead.
      const refused = await runScript(cliScript, ['api-key', '--email', adminEmail], env);
      assert.equal(refused.code, 75, refused.stderr);
      const refusal = `the server is running on this DATA_DIR \\(.+, pid ${first.child.pid}\\): stop it, or mint credentials over the API`;
      assert.match(refused.stderr, new RegExp(refusal));
    }
    await killHard(first);
    current = null;

    // The CLI works on the same database while the server is down (on the embedded database,
    // it takes over the lock the killed server left).
    const cli = await runScript(cliScript, ['api-key', '--email', adminEmail], env);
    assert.equal(cli.code, 0, cli.stderr);
    const cliKey = /api_key=(\w+)/.exec(cli.stdout)?.[1];
    const cliSecret = /api_secret=(\w+)/.exec(cli.stdout)?.[1];
    assert.ok(cliKey && cliSecret, cli.stdout);

    const second = await start(env);
    current = second;
    const listed = await fetch(`${second.base}/api/v1/tags`, { headers: { authorization: `token ${cliKey}:${cliSecret}` } });
    // Seen once in CI (a 401 on the embedded database, not reproduced in 8 runs): the answer, the
    // CLI's output and the server's log say more next time.
    assert.equal(listed.status, 200, `${await listed.clone().text()}\nCLI: ${cli.stderr}\nserver:\n${second.output()}`);
    const present = new Set(((await listed.json()) as { data: Array<{ name: string }> }).data.map((t) => t.name));
    for (const name of acknowledged) assert.ok(present.has(name), `acknowledged write ${name} was lost`);
    // The first pair was replaced by the CLI: it no longer works.
    const old = await fetch(`${second.base}/api/v1/tags`, { headers: { authorization: token } });
    assert.equal(old.status, 401);

    assert.equal(await stopGracefully(second), 0, second.output());
    current = null;
  } finally {
    if (current) await killHard(current);
  }
}

describe('the server process', { timeout: 180_000 }, () => {
  it('survives SIGKILL on the embedded database', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-proc-'));
    try {
      await scenario({ DATA_DIR: dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const databaseUrl = process.env['DATABASE_URL'];
  it('survives SIGKILL on PostgreSQL', { skip: databaseUrl ? false : 'DATABASE_URL not set' }, async () => {
    await withScratchDatabase(databaseUrl!, (dataDir, url) =>
      scenario({ DATA_DIR: dataDir, DATABASE_URL: url, ...(process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}) }),
    );
  });

  it(
    'runs several server processes on one port with SERVER_PROCESSES, replaces one that dies, stops them all',
    {
      skip: databaseUrl && process.env['REDIS_URL'] ? false : 'DATABASE_URL and REDIS_URL not set',
    },
    async () => {
      await withScratchDatabase(databaseUrl!, async (dataDir, url) => {
        let started: Started | null = null;
        try {
          started = await start({ DATA_DIR: dataDir, DATABASE_URL: url, REDIS_URL: process.env['REDIS_URL']!, SERVER_PROCESSES: '2' });
          const current = started;
          const readyPids = () =>
            current
              .output()
              .split('\n')
              .filter((line) => line.includes('parley is ready'))
              .map((line) => (JSON.parse(line) as { pid: number }).pid);
          const waitFor = async (what: string, ok: () => boolean) => {
            const deadline = Date.now() + 60_000;
            while (!ok()) {
              if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${current.output()}`);
              await new Promise((r) => setTimeout(r, 100));
            }
          };
          await waitFor('two server processes', () => readyPids().length === 2);
          const [first, second] = readyPids() as [number, number];
          assert.notEqual(first, second);
          assert.notEqual(first, started.child.pid);
          // Both answer on the one port (requests on new connections are spread over them).
          const answers = await Promise.all(
            Array.from({ length: 20 }, () => fetch(`${started!.base}/ready`, { headers: { connection: 'close' } }).then((r) => r.status)),
          );
          assert.deepEqual(new Set(answers), new Set([200]));

          // One dies: another takes its place (after a second, as it had served for less than a minute).
          process.kill(first, 'SIGKILL');
          await waitFor('a replacement', () => readyPids().length === 3);
          const replacement = readyPids()[2]!;
          assert.ok(![first, second].includes(replacement));
          assert.equal((await fetch(`${started.base}/ready`)).status, 200);

          // SIGTERM to the supervisor stops every process, gracefully.
          assert.equal(await stopGracefully(started), 0, started.output());
          started = null;
          for (const pid of [second, replacement]) assert.throws(() => process.kill(pid, 0), `server process ${pid} still runs`);
        } finally {
          if (started) await killHard(started);
        }
      });
    },
  );

  it(
    'a supervisor stopped while its processes are still starting exits cleanly',
    {
      skip: databaseUrl && process.env['REDIS_URL'] ? false : 'DATABASE_URL and REDIS_URL not set',
    },
    async () => {
      await withScratchDatabase(databaseUrl!, async (dataDir, url) => {
        const port = await freePort();
        let output = '';
        const child = spawn(process.execPath, [mainScript], {
          env: {
            ...baseEnv(),
            PORT: String(port),
            HOST: '127.0.0.1',
            LOG_LEVEL: 'info',
            DATA_DIR: dataDir,
            DATABASE_URL: url,
            REDIS_URL: process.env['REDIS_URL']!,
            SERVER_PROCESSES: '2',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        const deadline = Date.now() + 60_000;
        while (!output.includes('parley supervisor started')) {
          if (Date.now() > deadline) throw new Error(`the supervisor did not start:\n${output}`);
          await new Promise((r) => setTimeout(r, 20));
        }
        child.kill('SIGTERM');
        assert.equal(await exited, 0, output);
      });
    },
  );

  it('refuses SERVER_PROCESSES above 1 on the embedded database', async () => {
    const result = await runScript(mainScript, [], { SERVER_PROCESSES: '2', DATA_DIR: tmpdir() });
    assert.equal(result.code, 78);
    assert.match(result.stderr, /SERVER_PROCESSES above 1 needs DATABASE_URL/);
  });

  it('refuses a bad configuration value with one line naming the variable', async () => {
    const result = await runScript(mainScript, [], { PORT: 'eighty' });
    assert.equal(result.code, 78);
    assert.match(result.stderr, /PORT/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });
});
