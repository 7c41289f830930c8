import { checkWidgetContent, InvalidWidgetDataError, pythonJsonDumps, validatePollData, validateTodoData, widgetOf, widgetTypeOf } from '@app/domain';

describe('widgetOf (zerver/lib/widget.py get_widget_data)', () => {
  it('reads a poll: the first line is the question, further non-empty lines the options without list markers', () => {
    expect(widgetOf('/poll What now?\n- one\n*  two \n\nthree - four')).toEqual({ widget_type: 'poll', extra_data: { question: 'What now?', options: ['one', 'two', 'three - four'] } });
    expect(widgetOf('/poll')).toEqual({ widget_type: 'poll', extra_data: { question: '', options: [] } });
    expect(widgetOf('/poll\nA\nB')).toEqual({ widget_type: 'poll', extra_data: { question: '', options: ['A', 'B'] } });
  });

  it('reads a to-do list: the title, then tasks with a description after the first ": "', () =>
    expect(widgetOf('/todo Chores\n- Dishes: now: really\nLaundry')).toEqual({
      widget_type: 'todo',
      extra_data: { task_list_title: 'Chores', tasks: [{ task: 'Dishes', desc: 'now: really' }, { task: 'Laundry', desc: '' }] },
    }));

  it('is no widget unless the first word is exactly /poll or /todo', () => {
    for (const content of ['/pollen', 'a /poll', ' /poll x', '/me', '/todos', 'poll']) expect(widgetOf(content)).toBeNull();
  });
});

describe('pythonJsonDumps', () => {
  it("writes as Python's json.dumps: spaced separators, non-ASCII escaped", () =>
    expect(pythonJsonDumps({ a: ['x', 1, true, null], b: 'é🐙"' })).toBe('{"a": ["x", 1, true, null], "b": "\\u00e9\\ud83d\\udc19\\""}'));
});

describe('validatePollData / validateTodoData (zerver/lib/validator.py)', () => {
  const pollError = (data: unknown, author = false) => () => validatePollData(data, author);
  it('accepts votes, new options and the author\'s question', () => {
    expect(() => validatePollData({ type: 'vote', key: '10,1', vote: -1 }, false)).not.toThrow();
    expect(() => validatePollData({ type: 'new_option', option: 'x', idx: 1000 }, false)).not.toThrow();
    expect(() => validatePollData({ type: 'question', question: 'q' }, true)).not.toThrow();
  });
  it('refuses with the validator messages', () => {
    expect(pollError('x')).toThrow(new InvalidWidgetDataError('poll data is not a dict'));
    expect(pollError({ type: 1 })).toThrow('poll data["type"] is not a string');
    expect(pollError({ type: 'vote', key: 'k' })).toThrow('vote key is missing from poll data');
    expect(pollError({ type: 'vote', key: 'k', vote: 0 })).toThrow('Invalid poll data["vote"]');
    expect(pollError({ type: 'vote', key: 'k', vote: 'x' })).toThrow('poll data["vote"] is not an integer');
    expect(pollError({ type: 'new_option', option: 'x', idx: -1 })).toThrow('poll data["idx"] is too small');
    expect(pollError({ type: 'question', question: 'q' })).toThrow("You can't edit a question unless you are the author.");
    expect(pollError({ type: 'question', question: 'q', x: 1, y: 2 }, true)).toThrow('Unexpected arguments: x, y');
  });
  it('checks to-do data', () => {
    expect(() => validateTodoData({ type: 'new_task', key: 3, task: 't', desc: '', completed: false }, false)).not.toThrow();
    expect(() => validateTodoData({ type: 'strike', key: '3,10' }, false)).not.toThrow();
    expect(() => validateTodoData({ type: 'new_task', key: 3, task: 't', desc: '', completed: 'no' }, false)).toThrow('todo data["completed"] is not a boolean');
    expect(() => validateTodoData({ type: 'new_task_list_title', title: 't' }, false)).toThrow("You can't edit the task list title unless you are the author.");
    expect(() => validateTodoData({ type: 'other' }, true)).toThrow('Unknown type for todo data: other');
  });
});

describe('widgetTypeOf (get_widget_type)', () => {
  it("is the content's widget_type, or undefined for content that says none", () => {
    expect(widgetTypeOf('{"widget_type": "poll"}')).toBe('poll');
    for (const content of ['[1]', '"poll"', 'nope', '{}']) expect(widgetTypeOf(content)).toBeUndefined();
  });
});

describe('checkWidgetContent (POST /messages widget_content, check_widget_content)', () => {
  const error = (value: unknown) => () => checkWidgetContent(typeof value === 'string' ? value : JSON.stringify(value));
  it("accepts Zulip's zform choices widget", () => {
    const zform = { widget_type: 'zform', extra_data: { type: 'choices', heading: 'Options:', choices: [{ short_name: 'a', long_name: 'foo', reply: 'bar' }] } };
    expect(checkWidgetContent(JSON.stringify(zform))).toEqual(zform);
  });
  it('refuses with "Widgets: " and the validator messages', () => {
    expect(error('{{{')).toThrow('Widgets: API programmer sent invalid JSON content');
    expect(error(5)).toThrow('Widgets: widget_content is not a dict');
    expect(error({})).toThrow('Widgets: widget_type is not in widget_content');
    expect(error({ widget_type: 'x' })).toThrow('Widgets: extra_data is not in widget_content');
    expect(error({ widget_type: 'zform', extra_data: 4 })).toThrow('Widgets: extra_data is not a dict');
    expect(error({ widget_type: 'poll', extra_data: {} })).toThrow('Widgets: unknown widget type: poll');
    expect(error({ widget_type: 'zform', extra_data: {} })).toThrow('Widgets: zform is missing type field');
    expect(error({ widget_type: 'zform', extra_data: { type: 'bogus' } })).toThrow('Widgets: unknown zform type: bogus');
    expect(error({ widget_type: 'zform', extra_data: { type: 'choices' } })).toThrow('Widgets: heading key is missing from extra_data');
    expect(error({ widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: 99 } })).toThrow('Widgets: extra_data["choices"] is not a list');
    expect(error({ widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: [99] } })).toThrow('Widgets: extra_data["choices"][0] is not a dict');
    expect(error({ widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: [{ long_name: 'foo', reply: 'bar' }] } })).toThrow(
      'Widgets: short_name key is missing from extra_data["choices"][0]',
    );
  });
});
