// The benchmark's PostgreSQL database: dropped and recreated by name (it must contain "bench"),
// and marked with the scale it was seeded at so that --reuse can keep it.
import pg from 'pg';

// ---------------------------------------------------------------- the database itself

interface Target {
  name: string;
  maintenanceUrl: string;
}

function target(databaseUrl: string): Target {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  return { name, maintenanceUrl: url.toString() };
}

async function withMaintenance<T>(databaseUrl: string, work: (client: pg.Client, name: string) => Promise<T>): Promise<T> {
  const { name, maintenanceUrl } = target(databaseUrl);
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    return await work(client, name);
  } finally {
    await client.end();
  }
}

export async function recreateDatabase(databaseUrl: string): Promise<void> {
  await withMaintenance(databaseUrl, async (client, name) => {
    await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
    await client.query(`create database ${client.escapeIdentifier(name)}`);
  });
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  await withMaintenance(databaseUrl, async (client, name) => {
    await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
  });
}

/** The marker a finished seed leaves as the database's comment; a half-seeded database has none. */
function markerFor(scale: number): string {
  return `parley-bench dataset v1 scale=${scale}`;
}

export async function isSeededAt(databaseUrl: string, scale: number): Promise<boolean> {
  return withMaintenance(databaseUrl, async (client, name) => {
    const { rows } = await client.query<{ comment: string | null }>(
      `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`,
      [name],
    );
    return rows[0]?.comment === markerFor(scale);
  });
}

/** Called once seeding finished, so that a later --reuse finds a complete dataset. */
export async function markSeeded(databaseUrl: string, scale: number): Promise<void> {
  await withMaintenance(databaseUrl, async (client, name) => {
    await client.query(`comment on database ${client.escapeIdentifier(name)} is ${client.escapeLiteral(markerFor(scale))}`);
  });
}

// ---------------------------------------------------------------- seeding

/** Runs `work` in batches of `size` at a time (agent creation hashes a password with scrypt). */
