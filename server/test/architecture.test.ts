// The shape the code keeps (docs/code-map.md): a domain folder of server/src may use another
// domain, never one that uses it back, even through others. A cycle ties two domains together
// (neither can be read or changed alone) and makes module start-up order matter. Type-only
// imports are left out: they are erased before anything runs.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';

const SRC = resolve(import.meta.dirname, '..', 'src');

/**
 * What makes one module load another: `import … from`, `export … from` (not `import type`), a
 * bare `import './x.ts'` and a dynamic `import('./x.ts')`.
 */
const VALUE_IMPORTS = [/^(?:import|export)\s+(?!type\s)(?:[^;]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/gm, /\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g];

type Graph = Map<string, Map<string, string[]>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The domain (first folder under server/src) of a file; null for the top-level files (app.ts, deps.ts…). */
function domainOf(path: string): string | null {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? (parts[0] ?? null) : null;
}

/** domain → the domains it imports values from → the imports that do it. */
function domainGraph(files: readonly string[], read: (path: string) => string): Graph {
  const graph: Graph = new Map();
  for (const file of files) {
    const from = domainOf(file);
    if (from === null) continue;
    const text = read(file);
    for (const match of VALUE_IMPORTS.flatMap((pattern) => [...text.matchAll(pattern)])) {
      const target = resolve(dirname(file), match[1] ?? '');
      const to = domainOf(target);
      if (to === null || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), `${relative(SRC, file)} → ${relative(SRC, target)}`]);
    }
  }
  return graph;
}

/** The groups of two or more domains that reach each other (Tarjan's strongly connected components). */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the domains of server/src', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const files = ['a/a.service.ts', 'b/b.service.ts', 'c/c.service.ts', 'd/d.service.ts', 'e/e.ts', 'f/f.ts'].map((f) => join(SRC, f));
    const text: Record<string, string> = {
      'a/a.service.ts': "import { b } from '../b/b.service.ts';",
      'b/b.service.ts': "import { c } from '../c/c.service.ts';\nimport type { D } from '../d/d.service.ts';",
      'c/c.service.ts': "export { a } from '../a/a.service.ts';",
      'd/d.service.ts': "import {\n  a,\n} from '../a/a.service.ts';",
      'e/e.ts': "import '../f/f.ts';",
      'f/f.ts': "const { e } = await import('../e/e.ts');",
    };
    const graph = domainGraph(files, (path) => text[relative(SRC, path)] ?? '');
    assert.deepEqual(
      cycles(graph),
      [
        ['a', 'b', 'c'],
        ['e', 'f'],
      ],
      'd only reaches b by a type import',
    );
  });

  it('import one another in one direction only', () => {
    const graph = domainGraph(sourceFiles(SRC), (path) => readFileSync(path, 'utf8'));
    assert.ok(graph.size > 10, 'the domains were read');
    const found = cycles(graph);
    const explain = found.map((group) =>
      [
        group.join(' ↔ '),
        ...group.flatMap((from) => group.flatMap((to) => (graph.get(from)?.get(to) ?? []).slice(0, 3).map((line) => `  ${line}`))),
      ].join('\n'),
    );
    assert.deepEqual(found, [], `domains that import each other:\n${explain.join('\n')}`);
  });
});
