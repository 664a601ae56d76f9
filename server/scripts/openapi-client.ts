// Generates the web app's API types (web/src/api/schema.d.ts) from Parley's OpenAPI document:
// `npm run openapi` (root) or `npm run openapi -w web`. The app is built in-process on an
// in-memory database (nothing listens), its document read, and openapi-typescript turns it into
// types. The file is committed; server/src/http/web-client.test.ts fails when it is stale.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openRuntime, prepareDatabase } from '../src/setup.ts';

export const CLIENT_TYPES_FILE = resolve(import.meta.dirname, '..', '..', 'web', 'src', 'api', 'schema.d.ts');

const HEADER = `// Generated from Parley's OpenAPI document by server/scripts/openapi-client.ts
// (npm run openapi). Do not edit: change the route schemas and generate again.
`;

/** The TypeScript types of a document, as committed. */
export async function clientTypesOf(document: unknown): Promise<string> {
  // openapi-typescript takes the document as its own OpenAPI3 type; this one comes from @fastify/swagger.
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0]);
  return HEADER + astToString(ast);
}

/** The OpenAPI document of an app built with the default configuration (as `npm start` would, on loopback). */
export async function currentDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-openapi-'));
  const log = pino({ level: 'silent' });
  const config = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'openapi-generation-key-0123456789abcdef', LOG_LEVEL: 'silent' });
  const runtime = await openRuntime(config, log, { inMemory: true });
  try {
    await prepareDatabase(runtime.deps.db);
    const app = await buildApp(runtime.deps, { webDistDir: join(dataDir, 'no-web-app') });
    await app.ready();
    const document = app.swagger();
    await app.close();
    return document;
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const types = await clientTypesOf(await currentDocument());
  writeFileSync(CLIENT_TYPES_FILE, types);
  process.stdout.write(`wrote ${CLIENT_TYPES_FILE} (${types.length} characters)\n`);
}
