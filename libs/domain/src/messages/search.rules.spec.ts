import { highlightHtml, indexStems, parseSearchQuery, phraseSequence, porterStem, searchStems, stemSequence } from './search.rules';

describe('search rules', () => {
  it('stems as Porter does', () => {
    expect(['run', 'running', 'runs', 'caresses', 'ponies', 'relational', 'generalization', 'hopeful', 'adjustment'].map(porterStem)).toEqual([
      'run', 'run', 'run', 'caress', 'poni', 'relat', 'gener', 'hope', 'adjust',
    ]);
    expect(porterStem('is')).toBe('is'); // shorter than 3: left alone
  });

  it('parses words (folded, stop words out, each once) and quoted phrases (stop words kept)', () => {
    expect(parseSearchQuery('The Café  running cafe "end of the line"')).toEqual({ words: ['cafe', 'running', 'end', 'line'], phrases: [['end', 'of', 'the', 'line']] });
    expect(parseSearchQuery('the "of a"')).toEqual({ words: [], phrases: [['of', 'a']] });
    expect(parseSearchQuery('"single"')).toEqual({ words: ['single'], phrases: [] });
    expect(parseSearchQuery('"unclosed quote')).toEqual({ words: ['unclosed', 'quote'], phrases: [] });
  });

  it('indexes distinct stems without stop words, and stem sequences for phrases', () => {
    expect(indexStems('The runner is running; runners RUN!')).toEqual(['runner', 'run']);
    expect(stemSequence('Running late, again')).toBe(' run late again ');
    expect(phraseSequence(['running', 'late'])).toBe(' run late ');
    expect(stemSequence('…')).toBe('');
  });

  it('highlights matching words outside tags and character references', () => {
    const stems = searchStems(parseSearchQuery('run amp href'));
    expect(highlightHtml('<p><a href="https://run.test">Running</a> &amp; runs, rerun</p>', stems)).toBe(
      '<p><a href="https://run.test"><span class="highlight">Running</span></a> &amp; <span class="highlight">runs</span>, rerun</p>',
    );
    expect(highlightHtml('Café', searchStems(parseSearchQuery('cafe')))).toBe('<span class="highlight">Café</span>');
    expect(highlightHtml('<p>x</p>', new Set())).toBe('<p>x</p>');
  });
});
