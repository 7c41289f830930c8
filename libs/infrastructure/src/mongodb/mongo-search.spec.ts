import { parseSearchQuery } from '@app/domain';
import { narrowFilters } from './mongo-narrow';
import { searchFields } from './mongo-search';

describe('MongoDB search index fields and conditions', () => {
  it('keeps the stems of the topic and the content apart and together, and their sequences', () => {
    expect(searchFields('The builds are RUNNING late', 'Café status')).toEqual({
      wc: ['build', 'run', 'late'], wt: ['cafe', 'statu'], w: ['cafe', 'statu', 'build', 'run', 'late'],
      q: ' the build ar run late ', qt: ' cafe statu ',
    });
    expect(searchFields('', null)).toEqual({ wc: [], wt: [], w: [], q: '', qt: '' });
  });

  it('asks for every stem through the word index and each phrase in order in the content or the topic', () => {
    const { early, late } = narrowFilters([{ kind: 'search', ...parseSearchQuery('runs "late builds"'), negated: false }], 'messages', () => false, '', { early: 'f', late: 'f' });
    expect(late).toEqual([]);
    expect(early).toEqual([{ $and: [{ w: { $all: ['run', 'late', 'build'] } }, { $or: [{ q: { $regex: ' late build ' } }, { qt: { $regex: ' late build ' } }] }] }]);
  });
});
