import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AREAS, type AreaDescriptor } from '@app/application';
import { ALL_PROJECTIONS } from './all-projections';
import { USER_MESSAGE_EVENT_TYPES } from './messages/user-messages.projection';
import type { Projection } from './shared/projection';

/** Every projection a `*.projection.ts` file of this library exports (an object with name, collection, handles, idsOf and evolve). */
function declaredProjections(): { file: string; name: string; projection: Projection }[] {
  const files = (readdirSync(__dirname, { recursive: true }) as string[]).filter((f) => f.endsWith('.projection.ts'));
  expect(files.length).toBeGreaterThan(20);
  return files.flatMap((file) =>
    Object.entries(require(join(__dirname, file)) as Record<string, unknown>)
      .filter(([, value]) => {
        const p = value as Partial<Projection> | null;
        return typeof p === 'object' && p !== null && typeof p.name === 'string' && Array.isArray(p.handles) && typeof p.evolve === 'function' && typeof p.idsOf === 'function';
      })
      .map(([name, projection]) => ({ file, name, projection: projection as Projection })),
  );
}

describe('the projections of the areas (PROJECTIONS_BY_AREA)', () => {
  it('register every projection a *.projection.ts exports, once, each under a checkpoint and a collection of its own', () => {
    const declared = declaredProjections();
    expect(declared.filter((d) => !ALL_PROJECTIONS.includes(d.projection)).map((d) => `${d.file}: ${d.name}`)).toEqual([]);
    const names = ALL_PROJECTIONS.map((p) => p.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    const collections = ALL_PROJECTIONS.map((p) => p.collection.name);
    expect(collections.filter((c, i) => collections.indexOf(c) !== i)).toEqual([]);
  });

  it('read every event type an area owns (or the user messages read it), and only those', () => {
    const owned = (AREAS as readonly AreaDescriptor[]).flatMap((area) => area.events ?? []);
    const handled = new Set<string>([...ALL_PROJECTIONS.flatMap((p) => p.handles), ...USER_MESSAGE_EVENT_TYPES]);
    expect(owned.filter((type) => !handled.has(type))).toEqual([]);
    expect([...handled].filter((type) => !owned.includes(type))).toEqual([]);
  });
});
