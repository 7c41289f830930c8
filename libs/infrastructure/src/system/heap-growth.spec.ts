import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth';

describe('limitHeapGrowth', () => {
  it('sets the growth factor unless node was given one on its command line', () => {
    expect(HEAP_GROWING_PERCENT).toBeGreaterThan(0);
    expect(limitHeapGrowth(HEAP_GROWING_PERCENT, ['--expose-gc'])).toBe(true);
    expect(limitHeapGrowth(HEAP_GROWING_PERCENT, ['--heap-growing-percent=20'])).toBe(false);
    expect(limitHeapGrowth(HEAP_GROWING_PERCENT, ['--heap_growing_percent', '20'])).toBe(false);
    expect(limitHeapGrowth(HEAP_GROWING_PERCENT, ['--heap-growing-percentage-of-nothing'])).toBe(true);
  });
});
