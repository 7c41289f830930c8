import { join } from 'node:path';
import * as ts from 'typescript';
import * as domain from '@app/domain';
import type { AreaDescriptor } from './area-descriptor';
import { AREAS, ID_SEQUENCES } from './areas';

/**
 * The areas' declarations (`<area>/<area>.area.ts`) against the code: what the compiler knows of
 * the sources (the sequences handlers allocate from, the event types deciders write) has to be
 * declared by an area, or a restore would not advance a sequence, a new event type would have no
 * owner. docs/adding-an-area.md.
 */
const areas: readonly AreaDescriptor[] = AREAS;
const root = join(__dirname, '..', '..', '..');

/** The application's sources as the compiler sees them (the domain's come along through @app/domain). */
const program = (() => {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram([join(__dirname, 'index.ts')], { ...options, noEmit: true, incremental: false, tsBuildInfoFile: undefined });
})();
const checker = program.getTypeChecker();
const sources = (dir: string) => program.getSourceFiles().filter((f) => f.fileName.startsWith(join(root, dir)) && !f.fileName.endsWith('.spec.ts'));

/** Every `ids.next(sequence)` / `ids.nextBlock(sequence, n)` on an IdAllocatorPort: the sequence's literal type, or the call's text when it has none. */
function allocations(): { sequence?: string; call: string; file: string }[] {
  const found: { sequence?: string; call: string; file: string }[] = [];
  for (const file of sources('libs/application/src')) {
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        ['next', 'nextBlock'].includes(node.expression.name.text) &&
        checker.getTypeAtLocation(node.expression.expression).getSymbol()?.getName() === 'IdAllocatorPort'
      ) {
        const argument = checker.getTypeAtLocation(node.arguments[0]);
        found.push({ sequence: argument.isStringLiteral() ? argument.value : undefined, call: node.getText(file), file: file.fileName.slice(root.length + 1) });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** Each decider the domain exports, with the `type`s of the events its `evolve` takes (its event union). */
function deciderEventTypes(): Map<string, string[]> {
  const index = program.getSourceFile(join(root, 'libs/domain/src/index.ts'))!;
  const out = new Map<string, string[]>();
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(index)!)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & ts.SymbolFlags.Variable)) continue;
    const type = checker.getTypeOfSymbolAtLocation(symbol, index);
    const evolve = type.getProperty('evolve');
    if (!evolve || !type.getProperty('decide') || !type.getProperty('initialState')) continue;
    const event = checker.getTypeOfSymbolAtLocation(checker.getTypeOfSymbolAtLocation(evolve, index).getCallSignatures()[0].parameters[1], index);
    const types = (event.isUnion() ? event.types : [event]).map((member) => {
      const literal = checker.getTypeOfSymbolAtLocation(member.getProperty('type')!, index);
      return literal.isStringLiteral() ? literal.value : `(not a literal in ${exported.getName()})`;
    });
    out.set(exported.getName(), types);
  }
  return out;
}

/** The deciders the domain exports, at run time. */
const domainDeciders = Object.entries(domain as Record<string, unknown>).filter(([, value]) => {
  const d = value as { decide?: unknown; evolve?: unknown; initialState?: unknown } | null;
  return typeof d === 'object' && d !== null && typeof d.decide === 'function' && typeof d.evolve === 'function' && typeof d.initialState === 'function';
});

describe('the areas (areas.ts) declare', () => {
  jest.setTimeout(60_000);

  it('each under a name of its own', () => {
    const names = areas.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('every id sequence a handler allocates from (IdAllocatorPort.next / nextBlock), and no other', () => {
    const calls = allocations();
    expect(calls.length).toBeGreaterThan(10);
    expect(calls.filter((c) => c.sequence === undefined)).toEqual([]);
    const declared = new Set([...ID_SEQUENCES.values()].map((s) => s.sequence));
    expect(calls.filter((c) => !declared.has(c.sequence!))).toEqual([]);
    const allocated = new Set(calls.map((c) => c.sequence));
    expect([...declared].filter((s) => !allocated.has(s))).toEqual([]);
  });

  it('each id field once (a field names ids of one sequence)', () => {
    const fields = areas.flatMap((a) => (a.idSequences ?? []).flatMap((s) => s.fields));
    expect(fields.filter((f, i) => fields.indexOf(f) !== i)).toEqual([]);
  });

  it('every decider the domain exports, once (its snapshot codec under a name of its own)', () => {
    expect(domainDeciders.length).toBeGreaterThan(20);
    const declared = areas.flatMap((a) => a.deciders ?? []);
    expect(domainDeciders.filter(([, d]) => !declared.includes(d as never)).map(([name]) => name)).toEqual([]);
    expect(declared.filter((d, i) => declared.indexOf(d) !== i)).toEqual([]);
    const snapshots = declared.map((d) => d.snapshot?.name);
    expect(snapshots.filter((name, i) => name === undefined || snapshots.indexOf(name) !== i)).toEqual([]);
  });

  it('every event type a decider writes, each owned by one area, and no other', () => {
    const written = deciderEventTypes();
    expect(written.size).toBe(domainDeciders.length);
    const owned = areas.flatMap((a) => a.events ?? []);
    expect(owned.filter((t, i) => owned.indexOf(t) !== i)).toEqual([]);
    const all = new Set([...written.values()].flat());
    expect([...written].flatMap(([decider, types]) => types.filter((t) => !owned.includes(t)).map((t) => `${decider}: ${t}`))).toEqual([]);
    expect(owned.filter((t) => !all.has(t))).toEqual([]);
  });
});
