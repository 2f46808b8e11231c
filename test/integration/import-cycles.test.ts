/**
 * No module of src/ imports itself back, through any path: a reader follows imports one way, and a
 * circle (type imports included, which name a module's shape as surely as a value does) is a
 * module that cannot be read without the others in it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

/** Every module of src/ and the modules of src/ it imports (static, dynamic and type imports, and re-exports). */
function importGraph(): Map<string, string[]> {
  const modules = readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|astro)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
  const known = new Set(modules);
  return new Map(
    modules.map((file) => {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
        .map((match) => resolve(dirname(file), match[1]!))
        .filter((target) => known.has(target));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** The circles of `graph`: each set of modules that reach one another (Tarjan's strongly connected components), as paths from src/. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (module: string) => {
    order.set(module, order.size);
    lowest.set(module, order.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module)!) {
      if (!order.has(target)) {
        visit(target);
        lowest.set(module, Math.min(lowest.get(module)!, lowest.get(target)!));
      } else if (onStack.has(target)) lowest.set(module, Math.min(lowest.get(module)!, order.get(target)!));
    }
    if (lowest.get(module) !== order.get(module)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(relative(SRC, member));
    } while (member !== module);
    if (members.length > 1 || graph.get(module)!.includes(module)) circles.push(members.sort());
  };
  for (const module of graph.keys()) if (!order.has(module)) visit(module);
  return circles;
}

describe('the imports of src/', () => {
  it('finds a circle where there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(circlesOf(graph).map((circle) => circle.map((path) => path.split('/').at(-1)))).toEqual([['a', 'b', 'c']]);
  });

  it('form no circle, type imports included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    // The graph holds the imports it is meant to: a value import and a type import read from the code.
    expect([...graph.values()].flat().length).toBeGreaterThan(300);
    expect(graph.get(join(SRC, 'outputs/listing-pages.ts'))).toContain(join(SRC, 'listing/routes.ts'));
    expect(graph.get(join(SRC, 'publish/record.ts'))).toContain(join(SRC, 'listing/page-keys.ts'));
    expect(circlesOf(graph)).toEqual([]);
  });
});
