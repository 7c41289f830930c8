import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve, sep } from 'path';
import * as ts from 'typescript';

// The folders of a library form a graph: folder A → folder B when a file in A imports a file in B (relative
// imports and '@app/<lib>/...' deep imports; spec files left out). A cycle (A → … → A) means no folder can be
// read, moved or tested without the others, so the graph must have none: README.md ("Layout") and
// docs/adding-an-area.md give the order of the application areas. Files at the root of src/ (index.ts,
// application.module.ts, areas.ts, area-descriptor.ts) are a node each: the barrel and the module import
// every area by design. libs/domain/src still has one knot of folders (below), reported, not yet untied.

const repo = resolve(__dirname, '../..');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });

const resolveFile = (base: string): string | undefined =>
  [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => existsSync(candidate) && statSync(candidate).isFile());

interface Import {
  from: string;
  to: string;
}

/** Every import of a library's source files that lands in the same library, as repository-relative paths. */
function libraryImports(lib: string): { src: string; imports: Import[] } {
  const src = join(repo, 'libs', lib, 'src');
  const imports: Import[] = [];
  for (const file of sourceFiles(src)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      let target: string | undefined;
      if (specifier.startsWith('.')) target = resolveFile(resolve(dirname(file), specifier));
      else if (specifier === `@app/${lib}` || specifier.startsWith(`@app/${lib}/`)) {
        target = resolveFile(join(src, specifier.slice(`@app/${lib}`.length)));
      }
      if (target?.startsWith(src + sep)) imports.push({ from: relative(repo, file), to: relative(repo, target) });
    }
  }
  return { src: relative(repo, src), imports };
}

/** The folder (first segment under src/) of a file, or the file itself when it sits at the root of src/. */
const nodeOf = (src: string, file: string) => relative(src, file).split(sep)[0];

/** Strongly connected components of size > 1 (Tarjan), each with the imports that tie it together. */
function folderCycles(lib: string): { folders: string[]; imports: Import[] }[] {
  const { src, imports } = libraryImports(lib);
  const edges = new Map<string, Import[]>();
  for (const imp of imports) {
    const [a, b] = [nodeOf(src, imp.from), nodeOf(src, imp.to)];
    if (a === b) continue;
    const key = `${a}\0${b}`;
    edges.set(key, [...(edges.get(key) ?? []), imp]);
  }
  const next = new Map<string, Set<string>>();
  for (const key of edges.keys()) {
    const [a, b] = key.split('\0');
    next.set(a, (next.get(a) ?? new Set()).add(b));
    if (!next.has(b)) next.set(b, new Set());
  }

  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);

  return components.map((folders) => ({
    folders,
    imports: [...edges.entries()]
      .filter(([key]) => key.split('\0').every((folder) => folders.includes(folder)))
      .flatMap(([, tying]) => tying),
  }));
}

const describeCycles = (cycles: ReturnType<typeof folderCycles>) =>
  cycles
    .map(({ folders, imports }) => `cycle ${folders.join(' ↔ ')}:\n${imports.map(({ from, to }) => `  ${from} → ${to}`).join('\n')}`)
    .join('\n\n');

/**
 * The domain's one knot, not untied yet: messages ↔ submessages. A sent message carries its widget's
 * first submessage (messages.events.ts and send-message.rules.ts read submessages.events.ts'
 * StoredSubmessage and widgets.rules.ts), while the submessages decider follows a topic on a vote
 * (messages.events.ts' UserTopicVisibilityPolicyChanged, visibility.rules.ts). It may shrink (then
 * empty this list); it must not grow, and no other cycle may appear.
 */
const KNOWN_DOMAIN_KNOT = ['messages', 'submessages'];

describe('folder cycles', () => {
  it('libs/application/src: no folder imports, through any chain, a folder that imports it', () => {
    expect(describeCycles(folderCycles('application'))).toBe('');
  });

  it('libs/domain/src: no cycle but the known knot, and that one no wider', () => {
    const cycles = folderCycles('domain');
    const unknown = cycles.filter(({ folders }) => !folders.every((folder) => KNOWN_DOMAIN_KNOT.includes(folder)));
    expect(describeCycles(unknown)).toBe('');
    expect(cycles.length).toBeLessThanOrEqual(1);
  });

  it('sees relative imports and deep @app imports', () => {
    const { imports } = libraryImports('application');
    expect(imports).toContainEqual({
      from: 'libs/application/src/users/user.queries.ts',
      to: 'libs/application/src/users/user.documents.ts',
    });
    expect(imports.some(({ from, to }) => from.includes('/src/messages/') && to.includes('/src/shared/'))).toBe(true);
  });
});
