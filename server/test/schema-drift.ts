// What the migrated database holds, beside what the code says it holds: the columns against the
// Kysely `Database` interface of server/src/db/types.ts (read with the TypeScript compiler), the
// triggers against the table of docs/code-map.md ("What the database does by itself"). Used by
// server/src/db/schema.test.ts to fail when one changes without the other.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import type { DB } from '../src/db/database.ts';

export type Family = 'text' | 'number' | 'boolean' | 'timestamp' | 'array' | 'json';
export interface Column {
  table: string;
  column: string;
  nullable: boolean;
  /** The type families the column may hold (json: any shape). */
  families: Family[];
}

/**
 * Tables the code reads and writes with SQL text only, never through Kysely's typed builder: the
 * migrations' own bookkeeping, and the report rollups kept by triggers (docs/code-map.md).
 */
export const UNTYPED_TABLES: ReadonlyMap<string, string> = new Map([
  ['schema_migrations', 'the migrator (db/database.ts)'],
  ['schema_migrations_lock', 'the migrator (db/database.ts)'],
  ['conversation_counts', 'triggers; read in SQL by conversations/records.queries.ts'],
  ['conversation_count_pending', 'triggers; folded in SQL by conversations/records.queries.ts'],
  ['report_daily_conversations', 'triggers; read in SQL by reports.queries.ts'],
  ['report_daily_tags', 'triggers; read in SQL by reports.queries.ts'],
  ['report_pending', 'triggers; folded in SQL by reports.queries.ts'],
  ['service_facts', 'triggers; read in SQL by service-rollups.queries.ts'],
  ['service_pending', 'triggers; folded in SQL by service-rollups.queries.ts'],
  ['service_rollup_state', 'service-rollups.queries.ts (SQL)'],
  ['service_rollups', 'triggers; read in SQL by service-rollups.queries.ts'],
  ['service_tag_pending', 'triggers; folded in SQL by service-rollups.queries.ts'],
  ['service_tag_rollups', 'triggers; read in SQL by service-rollups.queries.ts'],
]);

/** The type families a column of a PostgreSQL type may be given in TypeScript. */
const FAMILIES_OF: Record<string, readonly Family[]> = {
  integer: ['number'],
  smallint: ['number'],
  'double precision': ['number'],
  // int8 leaves node-postgres as text; PGlite gives a number.
  bigint: ['number', 'text'],
  text: ['text'],
  'character varying': ['text'],
  uuid: ['text'],
  date: ['text', 'timestamp'],
  'timestamp with time zone': ['timestamp'],
  boolean: ['boolean'],
  ARRAY: ['array'],
  jsonb: ['json', 'array', 'text', 'number', 'boolean'],
};

/** The columns of the migrated database's tables (the current schema). */
export async function databaseColumns(
  db: DB,
): Promise<Array<{ table: string; column: string; nullable: boolean; generated: boolean; dataType: string }>> {
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string; is_generated: string }>`
    select c.table_name, c.column_name, c.data_type, c.is_nullable, c.is_generated
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
     order by c.table_name, c.ordinal_position`.execute(db);
  return rows.map((r) => ({
    table: r.table_name,
    column: r.column_name,
    nullable: r.is_nullable === 'YES',
    generated: r.is_generated === 'ALWAYS',
    dataType: r.data_type,
  }));
}

function familiesOf(checker: ts.TypeChecker, type: ts.Type): { nullable: boolean; families: Family[] } {
  const parts = type.isUnion() ? type.types : [type];
  const families = new Set<Family>();
  let nullable = false;
  for (const part of parts) {
    if (part.flags & ts.TypeFlags.Null) nullable = true;
    else if (part.flags & ts.TypeFlags.Undefined) continue;
    else if (part.flags & ts.TypeFlags.StringLike) families.add('text');
    else if (part.flags & ts.TypeFlags.NumberLike) families.add('number');
    else if (part.flags & ts.TypeFlags.BooleanLike) families.add('boolean');
    else if (part.getSymbol()?.getName() === 'Date') families.add('timestamp');
    else if (checker.isArrayType(part) || checker.isTupleType(part)) families.add('array');
    else families.add('json');
  }
  return { nullable, families: [...families].sort() };
}

/** The columns of db/types.ts's `Database` interface: their selected type's nullability and families. */
export function typedColumns(typesFile = resolve(import.meta.dirname, '..', 'src', 'db', 'types.ts')): Column[] {
  const program = ts.createProgram([typesFile], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(typesFile);
  const module = source && checker.getSymbolAtLocation(source);
  const database = module && checker.getExportsOfModule(module).find((s) => s.getName() === 'Database');
  if (!source || !database) throw new Error(`no exported Database interface in ${typesFile}`);
  const out: Column[] = [];
  for (const table of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(database))) {
    const tableType = checker.getTypeOfSymbolAtLocation(table, source);
    for (const column of checker.getPropertiesOfType(tableType)) {
      let type = checker.getTypeOfSymbolAtLocation(column, source);
      // Kysely's ColumnType<Select, Insert, Update> (Generated too): the selected type is the column's.
      const select = type.getProperty('__select__');
      if (select) type = checker.getTypeOfSymbolAtLocation(select, source);
      out.push({ table: table.getName(), column: column.getName(), ...familiesOf(checker, type) });
    }
  }
  return out;
}

/** Every difference between the database's columns and the typed ones, in words (none: they agree). */
export function columnDrift(database: Awaited<ReturnType<typeof databaseColumns>>, typed: readonly Column[]): string[] {
  const problems: string[] = [];
  const typedByKey = new Map(typed.map((c) => [`${c.table}.${c.column}`, c]));
  const typedTables = new Set(typed.map((c) => c.table));
  const dbTables = new Set(database.map((c) => c.table));
  for (const table of dbTables) {
    if (!typedTables.has(table) && !UNTYPED_TABLES.has(table)) problems.push(`table ${table} is not in db/types.ts (Database)`);
  }
  for (const table of typedTables) if (!dbTables.has(table)) problems.push(`table ${table} of db/types.ts is not in the database`);
  const seen = new Set<string>();
  for (const c of database) {
    if (!typedTables.has(c.table)) continue;
    const key = `${c.table}.${c.column}`;
    seen.add(key);
    const t = typedByKey.get(key);
    if (!t) {
      problems.push(`column ${key} (${c.dataType}) is not in db/types.ts`);
      continue;
    }
    // PostgreSQL calls every generated column nullable: its type says what its expression gives.
    if (t.nullable !== c.nullable && !(c.generated && !t.nullable))
      problems.push(
        `column ${key}: ${c.nullable ? 'nullable' : 'not null'} in the database, ${t.nullable ? 'nullable' : 'not null'} in db/types.ts`,
      );
    const allowed = FAMILIES_OF[c.dataType];
    if (!allowed) problems.push(`column ${key}: type ${c.dataType} has no family (schema-drift.ts FAMILIES_OF)`);
    else if (t.families.length === 0 || t.families.some((f) => !allowed.includes(f))) {
      problems.push(`column ${key}: ${c.dataType} in the database, ${t.families.join(' | ') || 'never'} in db/types.ts`);
    }
  }
  for (const key of typedByKey.keys())
    if (!seen.has(key) && dbTables.has(key.split('.')[0] ?? '')) problems.push(`column ${key} of db/types.ts is not in the database`);
  return problems;
}

/** The triggers of the migrated database, as `table.trigger`. */
export async function databaseTriggers(db: DB): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname || '.' || t.tgname as name
      from pg_trigger t
      join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace
     where not t.tgisinternal and n.nspname = current_schema()
     order by 1`.execute(db);
  return rows.map((r) => r.name);
}

export const CODE_MAP = resolve(import.meta.dirname, '..', '..', 'docs', 'code-map.md');
const TRIGGERS_HEADING = '## What the database does by itself';

/** The triggers listed in docs/code-map.md's table (first column: `table.trigger`), in their order. */
export function documentedTriggers(markdown = readFileSync(CODE_MAP, 'utf8')): Array<{ name: string; test: string }> {
  const start = markdown.indexOf(TRIGGERS_HEADING);
  if (start < 0) throw new Error(`docs/code-map.md has no "${TRIGGERS_HEADING}" section`);
  const section = markdown.slice(start + TRIGGERS_HEADING.length).split(/\n## /)[0] ?? '';
  const out: Array<{ name: string; test: string }> = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([a-z_]+\.[a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (name) out.push({ name, test: cells.at(-2) ?? '' });
  }
  return out;
}

/** Triggers of the database missing from the doc, and listed ones the database does not have. */
export function triggerDrift(database: readonly string[], documented: readonly string[]): string[] {
  const listed = new Set(documented);
  const present = new Set(database);
  return [
    ...database
      .filter((name) => !listed.has(name))
      .map((name) => `trigger ${name} is not in docs/code-map.md ("${TRIGGERS_HEADING.slice(3)}")`),
    ...documented.filter((name) => !present.has(name)).map((name) => `trigger ${name} of docs/code-map.md is not in the database`),
  ];
}
