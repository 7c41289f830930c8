import { deciderSpec, directoryOf, messageSent, sendMessage, userFacts } from '@app/testing';
import { DomainError, messageDecider, type SendMessageFacts } from '@app/domain';
import { extractPrivateRecipients, extractStreamIndicator } from './recipients.rules';

const given = deciderSpec(messageDecider);

/** The error a send with these facts fails with (fails the test if it succeeds). */
const errorOf = (overrides: Partial<SendMessageFacts>): DomainError => {
  try {
    given([]).when(sendMessage(overrides)).events();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected the send to fail');
};
const sentWith = (overrides: Partial<SendMessageFacts>) => {
  const [sent] = given([]).when(sendMessage(overrides)).events();
  if (sent.type !== 'MessageSent') throw new Error('expected MessageSent first');
  return sent.data;
};

describe('topics (Addressee.for_stream_*, truncate_topic)', () => {
  it('strips surrounding whitespace', () => expect(sentWith({ topic: '  \t lunch \n' }).recipient).toMatchObject({ topic: 'lunch' }));

  it.each(['(no topic)', 'general chat', '  general chat  '])('reads %j as the empty topic', (topic) =>
    expect(sentWith({ topic }).recipient).toMatchObject({ topic: '' }));

  it('keeps 60 characters and cuts longer topics to the first 57 and "..."', () => {
    expect(sentWith({ topic: 'x'.repeat(60) }).recipient).toMatchObject({ topic: 'x'.repeat(60) });
    expect(sentWith({ topic: 'y'.repeat(61) }).recipient).toMatchObject({ topic: `${'y'.repeat(57)}...` });
  });

  it('counts code points, not UTF-16 units', () =>
    expect(sentWith({ topic: '🐙'.repeat(61) }).recipient).toMatchObject({ topic: `${'🐙'.repeat(57)}...` }));

  it.each([
    ['a\u0000b', 2],
    ['🐙\u0007', 2],
    ['ok\uFDD0', 3],
    ['\u0085x', 1], // NEL is whitespace to Python: stripped, then the topic is fine
  ])('refuses unprintable characters in %j with their position', (topic, position) => {
    if (topic.startsWith('\u0085')) return expect(sentWith({ topic }).recipient).toMatchObject({ topic: 'x' });
    expect(errorOf({ topic }).message).toBe(`Invalid character in topic, at position ${position}!`);
  });

  it('requires a topic for channel messages', () => expect(errorOf({ topic: undefined }).message).toBe('Missing topic'));

  it('ignores the topic of direct messages', () => expect(sentWith({ type: 'direct', to: '[10]', topic: '\u0000', directory: directoryOf(userFacts()) }).recipient.type).toBe('direct'));
});

describe('content (normalize_body)', () => {
  it('drops trailing whitespace and leading newlines, keeping leading spaces', () =>
    expect(sentWith({ content: '\n\n    code\n  \n\t \n' }).content).toBe('    code'));

  it('keeps trailing spaces inside lines (only the end of the message is stripped)', () =>
    expect(sentWith({ content: 'a  \nb' }).content).toBe('a  \nb'));

  it.each(['', '   ', '\n\t\n'])('refuses an empty message %j', (content) => {
    const error = errorOf({ content });
    expect({ message: error.message, code: error.code }).toEqual({ message: 'Message must not be empty', code: 'BAD_REQUEST' });
  });

  it('refuses NUL', () => expect(errorOf({ content: 'a\u0000b' }).message).toBe('Message must not contain null bytes'));

  it('truncates to 10,000 code points with "\\n[message truncated]"', () => {
    const content = sentWith({ content: 'z'.repeat(10_001) }).content;
    expect([...content]).toHaveLength(10_000);
    expect(content).toBe(`${'z'.repeat(9980)}\n[message truncated]`);
    expect(sentWith({ content: 'z'.repeat(10_000) }).content).toBe('z'.repeat(10_000));
  });

  it('checks the addressee before the content, and the content before the channel', () => {
    expect(errorOf({ topic: undefined, content: '' }).message).toBe('Missing topic');
    expect(errorOf({ content: '', channel: null }).message).toBe('Message must not be empty');
  });

  it('renders the content and reports /me messages', () => {
    expect(sentWith({ content: '**hi**' }).renderedContent).toBe('<p><strong>hi</strong></p>');
    expect(sentWith({ content: '/me waves' }).isMeMessage).toBe(true);
  });
});

describe('recipient syntax (extract_stream_indicator, extract_private_recipients)', () => {
  it('reads a channel as a name, a JSON name, an id or a JSON list of one', () => {
    expect(extractStreamIndicator('Denmark')).toBe('Denmark');
    expect(extractStreamIndicator('"Denmark"')).toBe('Denmark');
    expect(extractStreamIndicator('5')).toBe(5);
    expect(extractStreamIndicator('["Denmark"]')).toBe('Denmark');
    expect(extractStreamIndicator('[5]')).toBe(5);
  });

  it('reads exactly what JSON.parse reads as JSON, and everything else as text', () => {
    // The reference: JSON.parse tried on every text.
    const reference = (to: string): string | number | Error => {
      let data: unknown;
      try {
        data = JSON.parse(to);
      } catch {
        return to;
      }
      if (Array.isArray(data)) data = data.length === 1 ? data[0] : new Error('list');
      return typeof data === 'string' || (typeof data === 'number' && Number.isInteger(data)) ? data : new Error('type');
    };
    const read = (to: string) => {
      try {
        return extractStreamIndicator(to);
      } catch {
        return 'error';
      }
    };
    const texts = [
      'news', 'team', 'frank@example.com', 'nullable', 'true story', 'falsehood', '2024 plans', '2024-plans', '-5 degrees', '0x10', '01',
      ' 12 ', '\t-0\n', '-0.5e3', '1E2', '7', 'true', ' false ', 'null', '"news"', ' ["team"] ', '[7]', '{}', '[', '"unterminated', '\u00a012',
    ];
    for (const text of texts) {
      const expected = reference(text);
      expect([text, read(text)]).toEqual([text, expected instanceof Error ? 'error' : expected]);
    }
    // Random texts from JSON-ish characters.
    const alphabet = ' \t\n-+.0123456789eEtruefalsn"[]{},ab';
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const expected = reference(text);
      expect([text, read(text)]).toEqual([text, expected instanceof Error ? 'error' : expected]);
    }
    expect(extractPrivateRecipients('frank@x.test, nora@x.test')).toEqual({ emails: ['frank@x.test', 'nora@x.test'] });
  });

  it('refuses lists of other lengths and other JSON types', () => {
    expect(() => extractStreamIndicator('[1, 2]')).toThrow('Expected exactly one channel');
    expect(() => extractStreamIndicator('[]')).toThrow('Expected exactly one channel');
    expect(() => extractStreamIndicator('{"a": 1}')).toThrow('Invalid data type for channel');
    expect(() => extractStreamIndicator('1.5')).toThrow('Invalid data type for channel');
  });

  it('reads direct recipients as ids, emails, JSON lists or comma-separated text', () => {
    expect(extractPrivateRecipients('[11, 12, 11]')).toEqual({ ids: [11, 12] });
    expect(extractPrivateRecipients('["a@x.test", " b@x.test "]')).toEqual({ emails: ['a@x.test', 'b@x.test'] });
    expect(extractPrivateRecipients('a@x.test, b@x.test,')).toEqual({ emails: ['a@x.test', 'b@x.test'] });
    expect(extractPrivateRecipients('"a@x.test"')).toEqual({ emails: ['a@x.test'] });
  });

  it('refuses mixed lists and other JSON types', () => {
    expect(() => extractPrivateRecipients('[11, "a@x.test"]')).toThrow('Recipient lists may contain emails or user IDs, but not both.');
    expect(() => extractPrivateRecipients('["a@x.test", 11]')).toThrow('Recipient lists may contain emails or user IDs, but not both.');
    expect(() => extractPrivateRecipients('11')).toThrow('Invalid data type for recipients');
    expect(() => extractPrivateRecipients('[true]')).toThrow('Invalid data type for recipients');
  });

  it('needs a channel and a recipient', () => {
    expect(errorOf({ to: undefined }).message).toBe('Missing channel');
    expect(errorOf({ type: 'direct', to: undefined }).message).toBe('Message must have recipients');
    expect(errorOf({ type: 'private', to: '[]' }).message).toBe('Message must have recipients');
    expect(errorOf({ type: 'direct', to: ' , ' }).message).toBe('Message must have recipients');
  });
});

describe('the message stream', () => {
  it('is sent once', () => given([messageSent()]).when(sendMessage()).thenThrows(DomainError, 'Message 100 already exists'));
});
