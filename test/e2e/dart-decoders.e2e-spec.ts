import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DartDecoders } from '../support/dart-decoders';

/**
 * The interpreter behind test/e2e/zulip-flutter-decoders.e2e-spec.ts, on a few lines of Dart
 * written here in json_serializable's generated style (so that it is tested where the app's
 * sources are not at hand): each check a decoder makes, and the refusal of what it cannot read.
 */
const GENERATED = `
Thing _$ThingFromJson(Map<String, dynamic> json) => Thing(
  id: (json['id'] as num).toInt(),
  name: json['name'] as String,
  note: json['note'] as String?,
  flag: json['flag'] as bool? ?? true,
  ratio: (json['ratio'] as num?)?.toDouble(),
  tags: (json['tags'] as List<dynamic>).map((e) => e as String).toList(),
  byId: (json['by_id'] as Map<String, dynamic>).map(
    (k, e) => MapEntry(int.parse(k), Part.fromJson(e as Map<String, dynamic>)),
  ),
  color: $enumDecode(_$ColorEnumMap, json['color']),
  mood: $enumDecode(_$MoodEnumMap, json['mood'], unknownValue: Mood.unknown),
  size: $enumDecodeNullable(_$SizeEnumMap, json['size']),
  group: json['group'] == null ? null : GroupSettingValue.fromJson(json['group']),
);

Part _$PartFromJson(Map<String, dynamic> json) => Part(weight: (json['weight'] as num).toInt());

Odd _$OddFromJson(Map<String, dynamic> json) => Odd(when: DateTime.parse(json['when'] as String));

PingEvent _$PingEventFromJson(Map<String, dynamic> json) => PingEvent(id: (json['id'] as num).toInt());

GroupSettingValueNameless _$GroupSettingValueNamelessFromJson(Map<String, dynamic> json) => GroupSettingValueNameless(
  directMembers: (json['direct_members'] as List<dynamic>).map((e) => (e as num).toInt()).toList(),
);

const _$ColorEnumMap = {Color.red: 'red', Color.blue: 'blue'};
const _$MoodEnumMap = {Mood.happy: 1, Mood.unknown: null};
const _$SizeEnumMap = {Size.small: 'small'};
`;
const EVENTS = `
sealed class Event {
  factory Event.fromJson(Map<String, dynamic> json) {
    switch (json['type'] as String) {
      case 'ping': return PingEvent.fromJson(json);
      case 'thing':
        switch (json['op'] as String) {
          case 'add': return Odd.fromJson(json);
          default: return UnexpectedEvent.fromJson(json);
        }
      default: return UnexpectedEvent.fromJson(json);
    }
  }
}
`;

describe('the Dart decoder interpreter (test/support/dart-decoders.ts)', () => {
  let dir: string;
  let decoders: DartDecoders;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dart-decoders-'));
    mkdirSync(join(dir, 'model'));
    writeFileSync(join(dir, 'model', 'things.g.dart'), GENERATED);
    writeFileSync(join(dir, 'model', 'events.dart'), EVENTS);
    decoders = new DartDecoders(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const good = { id: 1, name: 'n', tags: ['a'], by_id: { '7': { weight: 2 } }, color: 'red', mood: 1, group: 3 };

  it('accepts a value the decoder accepts, with optional keys absent, null or defaulted', () => {
    expect(decoders.check('Thing', good)).toEqual([]);
    expect(decoders.check('Thing', { ...good, note: null, flag: null, ratio: 0.5, size: 'small', mood: 99, group: { direct_members: [1] } })).toEqual([]);
  });

  it('reports each place where the decoder would throw', () => {
    const bad = { ...good, id: '1', name: undefined, tags: ['a', 2], by_id: { x: { weight: 'heavy' } }, color: 'green', mood: null, ratio: 2, group: 'everyone' };
    expect(decoders.check('Thing', bad).sort()).toEqual(
      [
        '$.id: expected num, got "1"',
        '$.name: required String, got absent',
        '$.tags[]: expected String, got 2',
        '$.by_id{key x}: int.parse of "x"',
        '$.by_id.x.weight: expected num, got "heavy"',
        '$.color: "green" is not in _$ColorEnumMap ("red", "blue")',
        '$.mood: required value of _$MoodEnumMap, got null',
        '$.group: GroupSettingValue.fromJson: expected a group id or {direct_members, direct_subgroups}, got "everyone"',
      ].sort(),
    );
    // Dart's jsonDecode makes 2 an int, and `as double` of an int throws; `(x as num).toDouble()` does not.
    expect(decoders.check('Thing', { ...good, ratio: 2 })).toEqual([]);
  });

  it('dispatches events on type and op as Event.fromJson does', () => {
    expect(decoders.eventClass({ type: 'ping' })).toBe('PingEvent');
    expect(decoders.eventClass({ type: 'thing', op: 'add' })).toBe('Odd');
    expect(decoders.eventClass({ type: 'thing', op: 'remove' })).toBeUndefined();
    expect(decoders.check('Event', { type: 'ping', id: 1 })).toEqual([]);
    expect(decoders.check('Event', { type: 'ping' })).toEqual(['$(PingEvent).id: required num, got absent']);
    expect(decoders.check('Event', { type: 'other', id: 'x' })).toEqual(['$(UnexpectedEvent).id: expected int, got "x"']);
    expect(decoders.check('Event', { type: 'thing', id: 1 })).toEqual(['$.op: required String, got absent']);
  });

  it('refuses what it cannot read instead of accepting it, and says so', () => {
    expect(decoders.unknownPatterns.size).toBe(0);
    expect(decoders.check('Odd', { when: '2026-01-01' })).toEqual([expect.stringContaining('decoder pattern not understood by the checker')]);
    expect(decoders.check('Nowhere', {})).toEqual(['$: decoder pattern not understood by the checker: Nowhere.fromJson']);
    expect([...decoders.unknownPatterns]).toEqual([expect.stringContaining('DateTime.parse'), 'Nowhere.fromJson']);
  });
});
