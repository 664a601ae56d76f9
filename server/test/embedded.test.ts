// The embedded database as an operator meets it: the first start on an empty DATA_DIR says
// what it is doing; the running server owns its DATA_DIR (the CLI and a second server are
// refused, with what to do instead) and frees it when it stops; the CLI says which database
// it opened and never creates one by accident.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import pg from 'pg';
import { ensureMigratedImage } from '../src/setup.ts';
import { cliScript, killHard, mainScript, runScript, type Started, startServer } from './process-helpers.ts';

function withDataDir(body: (dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-embedded-'));
    try {
      await body(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const createAdminArgs = ['create-admin', '--email', 'owner@example.com', '--password', 'a long passphrase'];

/** The `msg` of each JSON log line. */
function messages(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

describe('the embedded database', { timeout: 240_000 }, () => {
  // `npm install` makes it; made here too, so that these tests never depend on an earlier step.
  before(() => ensureMigratedImage());

  it(
    'first start says what it does; the running server owns DATA_DIR; a stop frees it, even with stdout gone',
    withDataDir(async (dataDir) => {
      let server: Started | null = await startServer({ DATA_DIR: dataDir });
      try {
        const logged = messages(server.output());
        const pgdata = join(dataDir, 'pgdata');
        // `npm install` made the migrated image: a first start loads it, with nothing left to migrate.
        assert.ok(logged.includes(`creating the embedded database in ${pgdata} from the migrated image`), logged.join('\n'));
        assert.ok(logged.includes('created the embedded database'));
        assert.ok(!logged.some((m) => m.startsWith('applying database migration')), logged.join('\n'));
        // The first-admin hint points to the setup form with a one-time token, and does not send a
        // newcomer to a CLI that cannot open the running server's database.
        const hint = logged.find((m) => m.startsWith('No agent exists yet.'));
        assert.match(
          hint ?? '',
          /^No agent exists yet\. To create the first admin, open http:\/\/localhost:\d+\/setup and paste this one-time setup token \(valid 24 hours; a restart prints a new one and voids this one\): [A-Za-z0-9_-]{43} {2}Or stop the server \(Ctrl-C\) and start it again with: ADMIN_EMAIL=/,
        );
        const ready = server
          .output()
          .split('\n')
          .find((line) => line.includes('"parley is ready"'));
        assert.ok(ready && (JSON.parse(ready) as { startupMs: number }).startupMs > 0);

        // While it runs, the CLI and a second server are refused at once, and say why.
        const pid = server.child.pid;
        const apiKey = await runScript(cliScript, ['api-key', '--email', 'nobody@example.com'], { DATA_DIR: dataDir });
        assert.equal(apiKey.code, 75, apiKey.stderr);
        assert.equal(apiKey.stdout, '');
        assert.equal(
          apiKey.stderr.trim().split('\n').at(-1),
          `parley cli: the server is running on this DATA_DIR (${dataDir}, pid ${pid}): stop it, or mint credentials over the API: ` +
            'POST /api/v1/auth/login, then POST /api/v1/agents/me/api-key with the X-CSRF-Token header',
        );
        const createAdmin = await runScript(cliScript, createAdminArgs, { DATA_DIR: dataDir });
        assert.equal(createAdmin.code, 75, createAdmin.stderr);
        assert.match(createAdmin.stderr, /the server is running on this DATA_DIR .*POST \/api\/v1\/agents/);
        const second = await runScript(mainScript, [], { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
        assert.equal(second.code, 75, second.stderr);
        const busy = `^parley: cannot start: DATA_DIR ${dataDir} is in use by the Parley server \\(pid ${pid}, since .+\\): stop it first`;
        assert.match(second.stderr, new RegExp(busy));
        assert.equal((await fetch(`${server.base}/ready`)).status, 200, 'the running server is unaffected');

        // A graceful stop frees DATA_DIR, even when the reader of its log pipe is gone (`npm start | cat`, Ctrl-C).
        server.child.stdout?.destroy();
        server.child.stderr?.destroy();
        const exited = new Promise<number | null>((r) => server!.child.once('exit', (code) => r(code)));
        server.child.kill('SIGTERM');
        const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running 20 s after SIGTERM'), 20_000))]);
        assert.equal(code, 0);
        server = null;
        assert.ok(!existsSync(join(dataDir, 'pgdata.lock')), 'the lock is released');

        const created = await runScript(cliScript, createAdminArgs, { DATA_DIR: dataDir });
        assert.equal(created.code, 0, created.stderr);
        assert.match(created.stdout, /^created admin agent \d+ <owner@example\.com>\n$/);
      } finally {
        if (server) await killHard(server);
      }
    }),
  );

  it(
    'the CLI says which folder it opened and creates a database only with migrate --create',
    withDataDir(async (root) => {
      // A relative DATA_DIR that does not exist: refused with the absolute path, nothing created.
      for (const args of [['api-key', '--email', 'owner@example.com'], createAdminArgs, ['migrate']]) {
        const refused = await runScript(cliScript, args, { DATA_DIR: 'wrong/data' }, root);
        assert.equal(refused.code, 66, refused.stderr);
        const [opened, why] = refused.stderr.trim().split('\n');
        assert.equal(
          opened,
          `parley cli: database: embedded, in ${join(root, 'wrong/data/pgdata')} (DATA_DIR=${join(root, 'wrong/data')})`,
        );
        assert.equal(
          why,
          `parley cli: no database in ${join(root, 'wrong/data/pgdata')}: check DATA_DIR (now ${join(root, 'wrong/data')}; it must be the server's). ` +
            'A new installation gets its database at the first start of the server (npm start); ' +
            'to create an empty one here now: npm run cli -- migrate --create',
        );
      }
      assert.deepEqual(readdirSync(root), [], 'nothing written');

      // A folder that exists but is not the server's DATA_DIR: refused, left untouched.
      const other = join(root, 'elsewhere');
      mkdirSync(other);
      writeFileSync(join(other, 'notes.txt'), 'mine');
      const notHere = await runScript(cliScript, ['api-key', '--email', 'owner@example.com'], { DATA_DIR: other });
      assert.equal(notHere.code, 66, notHere.stderr);
      assert.deepEqual(readdirSync(other), ['notes.txt']);
      assert.equal(
        (await runScript(cliScript, ['create-admin', '--create'], { DATA_DIR: other })).code,
        64,
        '--create goes with migrate only',
      );

      // A creation stopped half-way (the marker is still there) is discarded and done again.
      const dataDir = join(root, 'data');
      mkdirSync(join(dataDir, 'pgdata'), { recursive: true });
      writeFileSync(join(dataDir, 'pgdata', 'PG_VERSION'), '17\n');
      writeFileSync(join(dataDir, 'pgdata.creating'), '1\n');
      const stillMissing = await runScript(cliScript, ['api-key', '--email', 'owner@example.com'], { DATA_DIR: dataDir });
      assert.equal(stillMissing.code, 66, 'an unfinished database is no database');
      const created = await runScript(cliScript, ['migrate', '--create'], { DATA_DIR: dataDir });
      assert.equal(created.code, 0, created.stderr);
      // Created from the migrated image: already up to date.
      assert.match(created.stdout, /^database is up to date\n/);
      assert.match(created.stderr, /parley cli: discarding .*pgdata: its creation did not finish\n/);
      assert.ok(created.stderr.includes('from the migrated image'), created.stderr);
      assert.ok(!existsSync(join(dataDir, 'pgdata.creating')));
      assert.equal(readFileSync(join(dataDir, 'secret_key'), 'utf8').trim().length, 43);

      const admin = await runScript(cliScript, createAdminArgs, { DATA_DIR: dataDir });
      assert.equal(admin.code, 0, admin.stderr);
      const key = await runScript(cliScript, ['api-key', '--email', 'owner@example.com'], { DATA_DIR: dataDir });
      assert.equal(key.code, 0, key.stderr);
      assert.match(key.stdout, /^api_key=\w{32}\napi_secret=\w{64}\n$/);
      const upToDate = await runScript(cliScript, ['migrate'], { DATA_DIR: dataDir });
      assert.equal(upToDate.stdout, 'database is up to date\n');

      // A pgdata folder with files but no database in it (not ours): refused, never initialised over.
      const foreign = join(root, 'foreign');
      mkdirSync(join(foreign, 'pgdata'), { recursive: true });
      writeFileSync(join(foreign, 'pgdata', 'something'), 'x');
      const overwrite = await runScript(cliScript, ['migrate', '--create'], { DATA_DIR: foreign });
      assert.equal(overwrite.code, 1);
      assert.match(
        overwrite.stderr,
        /pgdata is not empty but holds no database \(no PG_VERSION\): move it away, or point DATA_DIR at the right folder/,
      );
      assert.deepEqual(readdirSync(join(foreign, 'pgdata')), ['something']);
    }),
  );

  const databaseUrl = process.env['DATABASE_URL'];
  const skip = databaseUrl ? false : 'DATABASE_URL not set';
  it('on PostgreSQL, the CLI refuses a database without Parley tables unless migrate --create', { skip }, async () => {
    const name = `parley_cli_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-embedded-'));
    try {
      const url = new URL(databaseUrl!);
      url.pathname = `/${name}`;
      url.password = 'sesame';
      const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString(), SECRET_KEY: 'k'.repeat(40) };
      const refused = await runScript(cliScript, createAdminArgs, env);
      assert.equal(refused.code, 66, refused.stderr);
      assert.ok(!refused.stderr.includes('sesame'), 'the password is not shown');
      assert.match(refused.stderr, /holds no Parley tables: check DATABASE_URL\. .*npm run cli -- migrate --create/);
      const created = await runScript(cliScript, ['migrate', '--create'], env);
      assert.equal(created.code, 0, created.stderr);
      const adminCreated = await runScript(cliScript, createAdminArgs, env);
      assert.equal(adminCreated.code, 0, adminCreated.stderr);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
