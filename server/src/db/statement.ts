// A hot query compiled once. Building and compiling a Kysely query costs about 30 µs, a tenth
// of a whole one-record request; for the few queries every request runs, the SQL is built
// once with placeholder arguments and later calls only substitute the parameter values.
//
// The builder must use each argument only as a value, as given (no `toLowerCase()`, no
// `JSON.stringify` inside, no branching on it): the first build checks that every argument
// came out as a parameter, and throws otherwise.
import type { CompiledQuery, Compilable } from 'kysely';
import type { DB } from './database.ts';

/** An argument: a value, or a list of ids (sent as one array parameter, `= any($n::int[])`). */
export type Arg = string | number | boolean | Date | null | readonly number[];

function placeholder(index: number): string {
  return `\u0000parley-arg-${index}\u0000`;
}

interface Template<R> {
  compiled: CompiledQuery<R>;
  /** For each parameter of the compiled query, the argument it takes, or null for a constant. */
  slots: Array<number | null>;
}

function template<A extends Arg[], R>(db: DB, arity: number, build: (db: DB, ...args: A) => Compilable<R>): Template<R> {
  const placeholders = Array.from({ length: arity }, (_, i) => placeholder(i)) as unknown as A;
  const compiled = build(db, ...placeholders).compile();
  const slots = compiled.parameters.map((value) => {
    const index = typeof value === 'string' ? placeholders.indexOf(value as never) : -1;
    return index >= 0 ? index : null;
  });
  for (let i = 0; i < arity; i++) {
    if (!slots.includes(i)) throw new Error(`compiledOnce: argument ${i} is not used as a plain query parameter`);
  }
  if (compiled.sql.includes('\u0000')) throw new Error('compiledOnce: an argument ended up in the SQL text');
  return { compiled, slots };
}

async function run<R>(db: DB, { compiled, slots }: Template<R>, args: readonly Arg[]): Promise<R[]> {
  const parameters = compiled.parameters.map((value, i) => {
    const slot = slots[i];
    return slot === null || slot === undefined ? value : args[slot];
  });
  const result = await db.executeQuery<R>({ ...compiled, parameters });
  return result.rows;
}

export function compiledOnce<A extends Arg[], R>(build: (db: DB, ...args: A) => Compilable<R>) {
  // One template for every executor (the pool, any transaction): the SQL depends only on the
  // dialect, PostgreSQL for both the server and the embedded database.
  let entry: Template<R> | null = null;
  return {
    async execute(db: DB, ...args: A): Promise<R[]> {
      entry ??= template(db, args.length, build);
      return run(db, entry, args);
    },
    async executeTakeFirst(db: DB, ...args: A): Promise<R | undefined> {
      return (await this.execute(db, ...args))[0];
    },
  };
}

/**
 * A query of a few shapes (which filters, which order), each compiled once: `shape` names
 * everything of the statement that is not an argument, and `build` must give the same SQL for
 * one shape whatever the arguments. At most `maxShapes` are kept; others are built each time.
 */
export function compiledPerShape<R>(maxShapes = 500) {
  const templates = new Map<string, Template<R>>();
  return async function execute<A extends Arg[]>(
    db: DB,
    shape: string,
    args: A,
    build: (db: DB, ...args: A) => Compilable<R>,
  ): Promise<R[]> {
    let entry = templates.get(shape);
    if (!entry) {
      entry = template(db, args.length, build);
      if (templates.size < maxShapes) templates.set(shape, entry);
    }
    return run(db, entry, args);
  };
}
