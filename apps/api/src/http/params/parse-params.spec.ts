import { IsIn, MaxLength } from 'class-validator';
import { BoolParam, EnumParam, IntParam, JsonParam, StringParam } from './param.decorators';
import { shapes } from './json-shapes';
import { parseParams } from './parse-params';
import { RequestParams } from './request-params';
import { ZulipParamsPipe } from './params.decorator';

class ExampleDto {
  @StringParam({ aliases: ['subject'], maxLength: 60 })
  topic!: string;

  @IntParam({ optional: true, min: 0 })
  stream_id?: number;

  @BoolParam({ optional: true })
  read_by_sender?: boolean;

  @JsonParam(shapes.union<unknown>(shapes.int(), shapes.list(shapes.int())), { optional: true })
  to?: number | number[];

  @JsonParam(shapes.list(shapes.object({ stream_id: shapes.int(), property: shapes.string() })), { optional: true })
  subscription_data?: { stream_id: number; property: string }[];

  @EnumParam(['add', 'remove'], { optional: true })
  op?: string;
}

class ValidatedDto {
  @StringParam()
  @MaxLength(5)
  name!: string;

  @StringParam({ optional: true })
  @IsIn(['a', 'b'])
  kind?: string;
}

const params = (body: Record<string, string>, query: Record<string, string> = {}) => RequestParams.fromRequest(query, body);
const parse = (body: Record<string, string>, query: Record<string, string> = {}) => parseParams(ExampleDto, params(body, query));

describe('Zulip parameter parsing', () => {
  it('takes strings literally and decodes typed parameters as JSON', () => {
    expect(parse({ topic: '"quoted" 42', stream_id: '7', read_by_sender: 'true', to: '[1,2]', op: 'add' })).toEqual({
      topic: '"quoted" 42', stream_id: 7, read_by_sender: true, to: [1, 2], op: 'add',
    });
  });

  it('reads the query string and prefers the body when both carry a name', () => {
    expect(parse({ topic: 'from body' }, { topic: 'from query', stream_id: '3' })).toMatchObject({ topic: 'from body', stream_id: 3 });
  });

  it('accepts a deprecated alias and refuses both spellings at once', () => {
    expect(parse({ subject: 'old name' }).topic).toBe('old name');
    expect(() => parse({ topic: 'a', subject: 'b' })).toThrow("Can't decide between 'topic' and 'subject' arguments");
  });

  it('reports a missing required parameter with its name', () => {
    try {
      parse({});
      throw new Error('expected an error');
    } catch (error) {
      expect(error).toMatchObject({ message: "Missing 'topic' argument", code: 'REQUEST_VARIABLE_MISSING', extra: { var_name: 'topic' } });
    }
  });

  it.each([
    [{ stream_id: 'abc' }, 'stream_id is not valid JSON'],
    [{ stream_id: '1.5' }, 'stream_id is not an integer'],
    [{ stream_id: 'true' }, 'stream_id is not an integer'],
    [{ stream_id: '"7"' }, 'stream_id is not an integer'],
    [{ stream_id: '-1' }, 'stream_id is too small'],
    [{ stream_id: '99999999999999999999' }, 'stream_id is too large'],
    [{ read_by_sender: '1' }, 'read_by_sender is not a boolean'],
    [{ read_by_sender: 'yes' }, 'read_by_sender is not valid JSON'],
    [{ to: '"x"' }, 'to is not a list'],
    [{ to: '[1,"x"]' }, 'to[1] is not an integer'],
    [{ subscription_data: '{}' }, 'subscription_data is not a list'],
    [{ subscription_data: '[{"stream_id":1}]' }, 'subscription_data[0]["property"] field is missing'],
    [{ subscription_data: '[{"stream_id":1,"property":"x","extra":1}]' }, 'Argument "extra" at subscription_data[0] is unexpected'],
    [{ op: 'toggle' }, 'Invalid op'],
    [{ topic: 'x'.repeat(61) }, 'topic is too long (limit: 60 characters)'],
  ])('rejects %j with "%s"', (extra, message) => {
    expect(() => parse({ topic: 't', ...extra })).toThrow(message);
  });

  it('counts characters, not UTF-16 units, for length limits', () => {
    expect(parse({ topic: '😀'.repeat(60) }).topic).toHaveLength(120);
  });

  it('lists the parameters an endpoint did not read, sorted', () => {
    const p = params({ topic: 't', zebra: '1' }, { apple: '2' });
    parseParams(ExampleDto, p);
    expect(p.ignored()).toEqual(['apple', 'zebra']);
  });

  it('applies class-validator constraints declared on the DTO, in Zulip words', () => {
    const pipe = new ZulipParamsPipe();
    const run = (body: Record<string, string>) => pipe.transform(params(body), { type: 'custom', metatype: ValidatedDto });
    expect(run({ name: 'abc', kind: 'a' })).toEqual({ name: 'abc', kind: 'a' });
    expect(() => run({ name: 'abcdef' })).toThrow('name is too long (limit: 5 characters)');
    expect(() => run({ name: 'abc', kind: 'c' })).toThrow('Invalid kind');
  });
});
