// npm run cli -- <command>: operator tasks on the database the server uses (DATA_DIR or
// DATABASE_URL). It says which database it opened, and never creates one by accident: only
// `migrate --create` may. The embedded database belongs to one process: while the server runs
// on it the CLI is refused and points to the API instead.
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createAdmin, findAgentIdByEmail, generateApiKey } from './agents/agents.service.ts';
import { ConfigError, type EnvConfig, loadConfig } from './config.ts';
import { DataDirBusyError, describeHolder } from './db/data-dir-lock.ts';
import { embeddedDatabaseDir, hasMigrationTable, NoDatabaseError } from './db/database.ts';
import { openRuntime, prepareDatabase } from './setup.ts';
import { SYSTEM_ACTOR } from './audit/audit.service.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate [--create]                        apply pending database migrations (the server does it at start too);
                                            --create: create the database first when there is none
  create-admin --email E --password P [--first-name F] [--last-name L]
                                            create an agent with the Admin role
  api-key --email E                         mint API credentials for the agent with that email
                                            (prints api_key and api_secret once; replaces any earlier pair)

The CLI works on the server's database: DATA_DIR (default ./data, from where you run it) or DATABASE_URL.
It never creates a database, except migrate --create. The embedded database (DATA_DIR) is opened
by one process at a time: stop the server first, or do the same over the API.
`;

/** Exit codes (sysexits.h): bad usage, no database there, database in use by another process, bad configuration. */
const EX_USAGE = 64;
const EX_NOINPUT = 66;
const EX_TEMPFAIL = 75;
const EX_CONFIG = 78;

class CliError extends Error {
  readonly code: number;
  constructor(message: string, code = 1) {
    super(message);
    this.code = code;
  }
}

/** Log lines as plain `parley cli: …` lines on stderr (stdout carries the commands' output). */
const stderrLines = {
  write(line: string) {
    const { msg } = JSON.parse(line) as { msg?: string };
    if (msg) process.stderr.write(`parley cli: ${msg}\n`);
  },
};

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(USAGE);
    return command ? 0 : EX_USAGE;
  }
  if (!['migrate', 'create-admin', 'api-key'].includes(command)) throw new CliError(`unknown command "${command}"\n\n${USAGE}`, EX_USAGE);
  let values: { email?: string; password?: string; 'first-name'?: string; 'last-name'?: string; create?: boolean };
  try {
    values = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        create: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), EX_USAGE);
  }
  if (values.create && command !== 'migrate') throw new CliError('--create goes with migrate only', EX_USAGE);
  if (command === 'create-admin') {
    if (!values.email || !values.password) throw new CliError('create-admin needs --email and --password', EX_USAGE);
    if (values.password.length < 10) throw new CliError('the password must be at least 10 characters long', EX_USAGE);
  }
  if (command === 'api-key' && !values.email) throw new CliError('api-key needs --email', EX_USAGE);

  const config = loadConfig();
  const create = command === 'migrate' && values.create === true;
  process.stderr.write(`parley cli: database: ${describeDatabase(config)}\n`);
  const log = pino({ level: command === 'migrate' ? 'info' : 'warn' }, stderrLines);
  const runtime = await openRuntime(config, log, { owner: `cli ${command}`, createDatabase: create }).catch((error: unknown) => {
    throw refusal(error, config, command);
  });
  try {
    if (runtime.deps.dbKind === 'postgres' && !create && !(await hasMigrationTable(runtime.deps.db))) {
      throw new CliError(
        `the PostgreSQL database ${describeDatabase(config)} holds no Parley tables: check DATABASE_URL. ` +
          'The server creates them at its first start; to create them now: npm run cli -- migrate --create',
        EX_NOINPUT,
      );
    }
    const applied = await prepareDatabase(runtime.deps.db, log);
    switch (command) {
      case 'migrate':
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
        return 0;
      case 'create-admin': {
        const agent = await createAdmin(runtime.deps, SYSTEM_ACTOR, {
          email: values.email!,
          password: values.password!,
          ...(values['first-name'] ? { first_name: values['first-name'] } : {}),
          ...(values['last-name'] ? { last_name: values['last-name'] } : {}),
        });
        process.stdout.write(`created admin agent ${agent.id} <${agent.email}>\n`);
        return 0;
      }
      default: {
        const id = await findAgentIdByEmail(runtime.deps, values.email!);
        if (id === undefined) throw new CliError(`no agent with email ${values.email}`);
        const pair = await generateApiKey(runtime.deps, SYSTEM_ACTOR, id);
        process.stdout.write(`api_key=${pair.api_key}\napi_secret=${pair.api_secret}\n`);
        return 0;
      }
    }
  } finally {
    await runtime.close();
  }
}

/** Which database the CLI works on, without the password of a DATABASE_URL. */
function describeDatabase(config: EnvConfig): string {
  if (!config.databaseUrl) return `embedded, in ${embeddedDatabaseDir(config.dataDir)} (DATA_DIR=${config.dataDir})`;
  const url = new URL(config.databaseUrl);
  if (url.password) url.password = '***';
  return `PostgreSQL, ${url.toString()}`;
}

/** The one line that says why the database could not be opened, and what to do. */
function refusal(error: unknown, config: EnvConfig, command: string): unknown {
  if (error instanceof NoDatabaseError) {
    return new CliError(
      `no database in ${embeddedDatabaseDir(error.dataDir)}: check DATA_DIR (now ${error.dataDir}; it must be the server's). ` +
        'A new installation gets its database at the first start of the server (npm start); ' +
        'to create an empty one here now: npm run cli -- migrate --create',
      EX_NOINPUT,
    );
  }
  if (error instanceof DataDirBusyError) {
    const { holder } = error;
    if (holder.role !== 'server') {
      return new CliError(`${config.dataDir} is in use by ${describeHolder(holder)}: wait for it to finish, then try again`, EX_TEMPFAIL);
    }
    const instead =
      command === 'api-key'
        ? 'stop it, or mint credentials over the API: POST /api/v1/auth/login, then POST /api/v1/agents/me/api-key with the X-CSRF-Token header'
        : command === 'create-admin'
          ? 'stop it, or create the agent over the API as an admin: POST /api/v1/agents with "roles": ["Admin"]'
          : 'it applied the pending migrations when it started; stop it first to run this command';
    return new CliError(`the server is running on this DATA_DIR (${config.dataDir}, pid ${holder.pid}): ${instead}`, EX_TEMPFAIL);
  }
  return error;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof CliError || error instanceof ConfigError) {
      process.stderr.write(`parley cli: ${error instanceof ConfigError ? 'configuration error: ' : ''}${error.message}\n`);
      process.exit(error instanceof CliError ? error.code : EX_CONFIG);
    }
    if (error instanceof Error && 'statusCode' in error) process.stderr.write(`parley cli: ${error.message}\n`);
    else process.stderr.write(`parley cli: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
