import { filterConditions, type CollectionSpec } from './read-store.port';

const spec: CollectionSpec = { name: 'people', fields: [{ name: 'team', type: 'string' }, { name: 'age', type: 'number' }] };

describe('filterConditions', () => {
  it('flattens bare values, operators and $in, in order', () => {
    expect(filterConditions(spec, { team: 'core', age: { $gte: 30, $lt: 40 }, id: { $in: ['1', null] } })).toEqual([
      { field: 'team', op: 'eq', value: 'core' },
      { field: 'age', op: 'gte', value: 30 },
      { field: 'age', op: 'lt', value: 40 },
      { field: 'id', op: 'in', values: ['1', null] },
    ]);
  });

  it('treats null and undefined operands as null', () => {
    expect(filterConditions(spec, { team: null, age: { $ne: undefined } })).toEqual([
      { field: 'team', op: 'eq', value: null },
      { field: 'age', op: 'ne', value: null },
    ]);
  });

  it('refuses a field that is not declared', () => {
    expect(() => filterConditions(spec, { name: 'x' })).toThrow('people.name is not an indexed field');
  });
});
