// Import directions: agents, roles and teams use auth (to invalidate cached credentials), so
// auth must use none of them; and no two domains may import each other.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const SRC = resolve(import.meta.dirname, '..');
/**
 * Shared plumbing rather than a domain: its access hook imports auth and the permission catalogue
 * by design. The audit log is written by every domain (auth's sign-ins too) and imports only db.
 */
const INFRASTRUCTURE = new Set(['audit', 'db', 'http', 'realtime', 'security']);
const OWNED_HERE = ['agents', 'auth', 'roles', 'teams'];

/** Runtime imports between folders of server/src: `from → to → the import lines`. Type-only imports and schemas (shapes, no behaviour) aside. */
function folderImports(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || !file.includes('/')) continue;
    const from = file.split('/')[0]!;
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const match of text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'(\.{1,2}\/[^']+)'/gm)) {
      const target = relative(SRC, resolve(SRC, dirname(file), match[1]!));
      const to = target.split('/')[0]!;
      if (to === from || !target.includes('/') || target.endsWith('.schema.ts')) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      edges.set(to, [...(edges.get(to) ?? []), `${file} → ${target}`]);
      graph.set(from, edges);
    }
  }
  return graph;
}

describe('import directions', () => {
  const graph = folderImports();

  it('auth imports no domain, only plumbing', () => {
    const used = [...(graph.get('auth')?.entries() ?? [])].filter(([to]) => !INFRASTRUCTURE.has(to));
    assert.deepEqual(used, []);
  });

  it('agents, auth, roles and teams are in no import cycle with another domain', () => {
    const cycles: string[] = [];
    for (const domain of OWNED_HERE) {
      for (const [other, lines] of graph.get(domain) ?? []) {
        const back = graph.get(other)?.get(domain);
        if (back && !INFRASTRUCTURE.has(other)) cycles.push([...lines, ...back].join('; '));
      }
    }
    assert.deepEqual(cycles, []);
  });
});
