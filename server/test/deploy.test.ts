// The deployment files against the code they deploy (docs/operations.md): compose.yaml's
// instances must start with config.ts as it is now (every variable one it reads, the required
// ones set, the same environment on both), nginx must pass the sockets' upgrades to both, and
// the Dockerfile and the systemd unit must point at what exists. No Docker needed: the files
// are parsed, and the environment goes through loadConfig.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { loadConfig } from '../src/config.ts';

const root = resolve(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
}

const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const parleys = Object.entries(services).filter(([, service]) => service.image === 'parley:latest');

/** Compose's interpolation: `${NAME:?message}` takes the given value, `${NAME:-default}` the value or the default. */
function interpolate(value: string, given: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_]+)(?::([?-])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
    const set = given[name];
    if (set !== undefined) return set;
    if (kind === '?') throw new Error(`${name} is required: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

const GIVEN = { POSTGRES_PASSWORD: 'pw', SECRET_KEY: 'a-secret-key-of-at-least-32-characters' };

describe('compose.yaml', () => {
  it('runs PostgreSQL 16, Redis 7, two Parley instances of one image and a proxy, each with a health check', () => {
    assert.match(services['postgres']?.image ?? '', /^postgres:16/);
    assert.match(services['redis']?.image ?? '', /^redis:7/);
    assert.deepEqual(
      parleys.map(([name]) => name),
      ['parley-1', 'parley-2'],
    );
    for (const [name, service] of Object.entries(services)) assert.ok(service.healthcheck?.test.length, `${name} has a health check`);
    for (const [name, service] of parleys) {
      assert.match(service.healthcheck?.test.join(' ') ?? '', /\/ready/, `${name} checks /ready`);
      for (const needed of ['postgres', 'redis'])
        assert.equal(service.depends_on?.[needed]?.condition, 'service_healthy', `${name} → ${needed}`);
    }
    for (const [name] of parleys) assert.equal(services['proxy']?.depends_on?.[name]?.condition, 'service_healthy');
  });

  it('gives both instances the same environment, which config.ts accepts as a several-instance setup', () => {
    const [[, first], [, second]] = parleys as [[string, Service], [string, Service]];
    assert.deepEqual(first.environment, second.environment);
    const env = Object.fromEntries(
      Object.entries(first.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), GIVEN)]),
    );
    const config = loadConfig(env);
    assert.equal(config.databaseUrl, 'postgres://parley:pw@postgres:5432/parley');
    assert.equal(config.redisUrl, 'redis://redis:6379');
    assert.equal(config.secretKey?.toString(), GIVEN.SECRET_KEY, 'one SECRET_KEY for both');
    assert.equal(config.trustProxy, 1, 'one proxy in front');
    assert.equal(config.metricsPort, 9464);
    assert.throws(() => interpolate(String(first.environment?.['SECRET_KEY']), {}), /SECRET_KEY is required/);
  });

  it('sets only variables config.ts reads', () => {
    const source = read('server/src/config.ts');
    for (const [, service] of parleys) {
      for (const name of Object.keys(service.environment ?? {})) assert.ok(source.includes(`'${name}'`), `config.ts reads ${name}`);
    }
  });
});

describe('deploy/nginx.conf', () => {
  const conf = read('deploy/nginx.conf');

  it('balances both instances on the port they listen on', () => {
    const port = loadConfig({}).port;
    for (const [name] of parleys) assert.match(conf, new RegExp(`server ${name}:${port}\\b`), name);
    assert.ok(
      services['proxy']?.volumes?.some((volume) => volume.startsWith('./deploy/nginx.conf:')),
      'mounted by the proxy',
    );
  });

  it('passes the WebSocket upgrade on /ws and /widget/ws', () => {
    const block = /location ~ (\S+) \{([^}]*)\}/.exec(conf);
    assert.ok(block, 'a location for the sockets');
    const paths = new RegExp(block[1] as string);
    for (const path of ['/ws', '/widget/ws']) assert.ok(paths.test(path), path);
    for (const path of ['/wsx', '/api/v1/ws', '/widget/wsx']) assert.ok(!paths.test(path), path);
    const body = block[2] as string;
    assert.match(body, /proxy_http_version 1\.1;/);
    assert.match(body, /proxy_set_header Upgrade \$http_upgrade;/);
    assert.match(body, /proxy_set_header Connection \$connection_upgrade;/);
    assert.match(conf, /map \$http_upgrade \$connection_upgrade \{\s*default upgrade;/);
  });
});

/** The arguments `npm start` gives node (package.json): the Dockerfile and the unit give the same. */
function startArgs(): string[] {
  const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
  const [command, ...args] = start.split(/\s+/);
  assert.equal(command, 'node');
  return args;
}

/** glibc allocator settings (`MALLOC_…=value`) in a file, in their order. */
function allocatorSettings(text: string): string[] {
  return [...text.matchAll(/\b(MALLOC_[A-Z_]+=\S+?)(?=\s|\\|$)/gm)].map((match) => match[1] as string);
}

describe('Dockerfile and deploy/parley.service', () => {
  it('the image and the unit set the same allocator settings, which the benchmark runs with', () => {
    const image = allocatorSettings(read('Dockerfile'));
    assert.ok(image.includes('MALLOC_ARENA_MAX=2'), `the image sets: ${image.join(' ')}`);
    assert.deepEqual(allocatorSettings(read('deploy/parley.service')), image);
    assert.match(read('server/bench/processes.ts'), /allocatorSettings|imageAllocatorEnv/);
  });

  it('the image runs the start script as a non-root user, exposes the default port and checks /ready', () => {
    const dockerfile = read('Dockerfile');
    assert.match(dockerfile, /^FROM node:24-bookworm-slim AS build$|^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    assert.match(dockerfile, new RegExp(`^EXPOSE ${loadConfig({}).port}$`, 'm'));
    assert.match(dockerfile, /^USER (node|10001)$/m);
    assert.match(dockerfile, /^HEALTHCHECK .*\n?.*\/ready/m);
    assert.match(dockerfile, /^STOPSIGNAL SIGTERM$/m);
    const cmd = /^CMD \["node", (.+)\]$/m.exec(dockerfile);
    const args = cmd ? (JSON.parse(`[${cmd[1]}]`) as string[]) : [];
    assert.deepEqual(args, startArgs(), 'CMD runs node as `npm start` does');
    assert.ok(existsSync(join(root, args.at(-1) as string)), 'CMD runs a file that exists');
    assert.match(dockerfile, /^RUN node server\/scripts\/build-db-image\.ts$/m, 'the image holds the migrated image of the database');
    // Node keys its compile cache by user and flags: the image warms it as the user and with the flags of CMD.
    const warm = dockerfile.indexOf(`\nRUN node ${startArgs().join(' ')} --warm-compile-cache\n`);
    assert.ok(warm > dockerfile.indexOf('\nUSER node\n'), "the image fills Node's compile cache as its user, with CMD's flags");
    assert.match(dockerfile, /^RUN mkdir -p .*server\/\.cache\/compile && chown node:node .*server\/\.cache\/compile$/m);
  });

  it('the unit can write DATA_DIR and nothing else, and runs the start script', () => {
    const unit = read('deploy/parley.service');
    const dataDir = /^Environment=DATA_DIR=(\S+)$/m.exec(unit)?.[1];
    assert.ok(dataDir);
    assert.match(unit, new RegExp(`^ReadWritePaths=${dataDir}$`, 'm'));
    assert.match(unit, /^ProtectSystem=strict$/m);
    assert.match(unit, new RegExp(`^ExecStart=\\S+ ${startArgs().join(' ')}$`, 'm'), 'ExecStart runs node as `npm start` does');
    assert.match(unit, /^RestartPreventExitStatus=78$/m, 'a configuration error is not restarted (main.ts: EX_CONFIG)');
    assert.match(unit, /^CacheDirectory=parley$/m, "Node's compile cache in a directory of the service's own");
    assert.match(unit, /^Environment=NODE_COMPILE_CACHE=\/var\/cache\/parley$/m);
    assert.match(read('server/src/main.ts'), /const EX_CONFIG = 78;/);
  });
});
