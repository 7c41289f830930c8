import { InvalidWidgetDataError } from './submessages.errors';

/** The widget content of a message's first submessage: `{"widget_type": …, "extra_data": …}`. */
export type WidgetContent =
  | { widget_type: 'poll'; extra_data: { question: string; options: string[] } }
  | { widget_type: 'todo'; extra_data: { task_list_title: string; tasks: { task: string; desc: string }[] } };

/** Python's str.splitlines (no trailing empty line). */
const splitLines = (text: string): string[] => {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** A list item's text without its leading `-` or `*` marker (zerver/lib/widget.py). */
const listItem = (line: string): string => line.trim().replace(/\s*[-*]?\s*/, '');

/**
 * zerver/lib/widget.py get_widget_data: content whose first word is `/poll` or `/todo` is a
 * widget. For a poll, the rest of the first line is the question and each further non-empty line
 * an option; for a to-do list, the title and tasks (`task: description`, split at the first ": ").
 */
export function widgetOf(content: string): WidgetContent | null {
  // The first word (re.split(r"\s+", content)[0]): nothing when the content starts with a space.
  const first = /^\S*/.exec(content)![0];
  if (first !== '/poll' && first !== '/todo') return null;
  const lines = splitLines(content.replace(first, ''));
  const heading = lines.length > 0 && lines[0] !== '' ? lines.shift()!.trim() : '';
  const items = lines.map(listItem).filter((item) => item.length > 0);
  if (first === '/poll') return { widget_type: 'poll', extra_data: { question: heading, options: items } };
  const tasks = items.map((item) => {
    const at = item.indexOf(': ');
    return at < 0 ? { task: item.trim(), desc: '' } : { task: item.slice(0, at).trim(), desc: item.slice(at + 2).trim() };
  });
  return { widget_type: 'todo', extra_data: { task_list_title: heading, tasks } };
}

/** Python's json.dumps with its defaults (", " and ": " separators, non-ASCII escaped), as Zulip stores widget content. */
export function pythonJsonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`).join(', ')}}`;
  }
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return JSON.stringify(value);
}

// zerver/lib/validator.py's checkers, with their messages. Python counts booleans as integers.
type Check = (name: string, value: unknown) => void;
const fail = (message: string): never => {
  throw new InvalidWidgetDataError(message);
};
const isDict = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const checkString: Check = (name, v) => {
  if (typeof v !== 'string') fail(`${name} is not a string`);
};
const asInt = (name: string, v: unknown): number => {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(`${name} is not an integer`);
  return v as number;
};
const checkBool: Check = (name, v) => {
  if (typeof v !== 'boolean') fail(`${name} is not a boolean`);
};
const checkIntIn =
  (allowed: number[]): Check =>
  (name, v) => {
    if (!allowed.includes(asInt(name, v))) fail(`Invalid ${name}`);
  };
const checkIntRange =
  (low: number, high: number): Check =>
  (name, v) => {
    const n = asInt(name, v);
    if (n < low) fail(`${name} is too small`);
    if (n > high) fail(`${name} is too large`);
  };
/** check_dict (only: check_dict_only, no other keys). */
const checkDict = (name: string, value: unknown, required: [string, Check][], only: boolean) => {
  if (!isDict(value)) return fail(`${name} is not a dict`);
  for (const [key, check] of required) {
    if (!(key in value)) fail(`${key} key is missing from ${name}`);
    check(`${name}["${key}"]`, value[key]);
  }
  if (only) {
    const extra = Object.keys(value).filter((k) => !required.some(([key]) => key === k));
    if (extra.length > 0) fail(`Unexpected arguments: ${extra.join(', ')}`);
  }
};

/** The largest option or task index clients use (MAX_IDX). */
export const WIDGET_MAX_IDX = 1000;

/** validate_poll_data: a vote, the author's new question, or a new option. */
export function validatePollData(data: unknown, isWidgetAuthor: boolean): void {
  const name = 'poll data';
  checkDict(name, data, [['type', checkString]], false);
  const type = (data as { type: string }).type;
  if (type === 'vote') return checkDict(name, data, [['type', checkString], ['key', checkString], ['vote', checkIntIn([1, -1])]], true);
  if (type === 'question') {
    if (!isWidgetAuthor) fail("You can't edit a question unless you are the author.");
    return checkDict(name, data, [['type', checkString], ['question', checkString]], true);
  }
  if (type === 'new_option') return checkDict(name, data, [['type', checkString], ['option', checkString], ['idx', checkIntRange(0, WIDGET_MAX_IDX)]], true);
  fail(`Unknown type for poll data: ${type}`);
}

/** validate_todo_data: a new task, a task (un)checked, or the author's new title. */
export function validateTodoData(data: unknown, isWidgetAuthor: boolean): void {
  const name = 'todo data';
  checkDict(name, data, [['type', checkString]], false);
  const type = (data as { type: string }).type;
  if (type === 'new_task') {
    return checkDict(
      name,
      data,
      [['type', checkString], ['key', checkIntRange(0, WIDGET_MAX_IDX)], ['task', checkString], ['desc', checkString], ['completed', checkBool]],
      true,
    );
  }
  if (type === 'strike') return checkDict(name, data, [['type', checkString], ['key', checkString]], true);
  if (type === 'new_task_list_title') {
    if (!isWidgetAuthor) fail("You can't edit the task list title unless you are the author.");
    return checkDict(name, data, [['type', checkString], ['title', checkString]], true);
  }
  fail(`Unknown type for todo data: ${type}`);
}

/** get_widget_type: the `widget_type` of a message's first `widget` submessage, if its content says one. */
export function widgetTypeOf(content: string): unknown {
  try {
    const data: unknown = JSON.parse(content);
    return isDict(data) ? data.widget_type : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POST /messages `widget_content` (check_message, then check_widget_content): a widget given
 * outright instead of read from the content. Zulip accepts only its `zform` choices widget there;
 * errors are prefixed "Widgets: ". Returns what is stored: `{widget_type, extra_data}`.
 */
export function checkWidgetContent(raw: string): { widget_type: string; extra_data: Record<string, unknown> } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new InvalidWidgetDataError('Widgets: API programmer sent invalid JSON content');
  }
  try {
    if (!isDict(value)) fail('widget_content is not a dict');
    const widget = value as Record<string, unknown>;
    if (!('widget_type' in widget)) fail('widget_type is not in widget_content');
    if (!('extra_data' in widget)) fail('extra_data is not in widget_content');
    const extra = widget.extra_data;
    if (!isDict(extra)) return fail('extra_data is not a dict');
    if (widget.widget_type !== 'zform') fail(`unknown widget type: ${String(widget.widget_type)}`);
    if (!('type' in extra)) fail('zform is missing type field');
    if (extra.type !== 'choices') fail(`unknown zform type: ${String(extra.type)}`);
    const checkChoices: Check = (name, list) => {
      if (!Array.isArray(list)) fail(`${name} is not a list`);
      (list as unknown[]).forEach((choice, i) => checkDict(`${name}[${i}]`, choice, [['short_name', checkString], ['long_name', checkString], ['reply', checkString]], false));
    };
    checkDict('extra_data', extra, [['type', checkString], ['heading', checkString], ['choices', checkChoices]], false);
    return { widget_type: 'zform', extra_data: extra };
  } catch (error) {
    if (error instanceof InvalidWidgetDataError) throw new InvalidWidgetDataError(`Widgets: ${error.message}`);
    throw error;
  }
}
