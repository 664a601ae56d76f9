// npm run cli -- <command>: operator tasks on the configured database.
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createAdmin, findAgentIdByEmail, generateApiKey } from './agents/agents.service.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openRuntime, prepareDatabase } from './setup.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                   apply pending database migrations (also done at start)
  create-admin --email E --password P [--first-name F] [--last-name L]
                                            create an agent with the Admin role
  api-key --email E                         mint API credentials for the agent with that email
                                            (prints api_key and api_secret once; replaces any earlier pair)
`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(USAGE);
    return command ? 0 : 64;
  }
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, password: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } },
    strict: true,
  });
  const config = loadConfig();
  const log = pino({ level: 'warn' });
  const runtime = await openRuntime(config, log);
  try {
    const applied = await prepareDatabase(runtime.deps.db);
    switch (command) {
      case 'migrate':
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
        return 0;
      case 'create-admin': {
        if (!values.email || !values.password) throw new UsageError('create-admin needs --email and --password');
        if (values.password.length < 10) throw new UsageError('the password must be at least 10 characters long');
        const agent = await createAdmin(runtime.deps, {
          email: values.email,
          password: values.password,
          ...(values['first-name'] ? { first_name: values['first-name'] } : {}),
          ...(values['last-name'] ? { last_name: values['last-name'] } : {}),
        });
        process.stdout.write(`created admin agent ${agent.id} <${agent.email}>\n`);
        return 0;
      }
      case 'api-key': {
        if (!values.email) throw new UsageError('api-key needs --email');
        const id = await findAgentIdByEmail(runtime.deps, values.email);
        if (id === undefined) throw new UsageError(`no agent with email ${values.email}`);
        const pair = await generateApiKey(runtime.deps, id);
        process.stdout.write(`api_key=${pair.api_key}\napi_secret=${pair.api_secret}\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
    }
  } finally {
    await runtime.close();
  }
}

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) process.stderr.write(`parley cli: ${error.message}\n`);
    else if (error instanceof Error && 'statusCode' in error) process.stderr.write(`parley cli: ${error.message}\n`);
    else process.stderr.write(`parley cli: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
