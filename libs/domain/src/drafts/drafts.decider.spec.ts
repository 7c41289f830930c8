import { deciderSpec, draftEdited, draftInput, draftsCreated, draftsDeleted, storedDraft } from '@app/testing';
import {
  DraftDoesNotExistError,
  DraftsSynchronizationDisabledError,
  InvalidChannelIdError,
  InvalidDraftError,
  MessageError,
  draftRecipientIds,
  draftsDecider,
  type DraftInput,
  type DraftRecipientFacts,
  type DraftsCommand,
} from '@app/domain';

const given = deciderSpec(draftsDecider);
const NOW = '2026-02-03T04:05:06.789Z';
const NOW_SECONDS = Date.parse(NOW) / 1000;
const HAMLET = 10;

const facts = (overrides: Partial<DraftRecipientFacts> = {}): DraftRecipientFacts => ({
  accessibleChannelIds: [5],
  users: [
    { userId: HAMLET, email: 'hamlet@acme.test', isActive: true },
    { userId: 11, email: 'cordelia@acme.test', isActive: true },
    { userId: 12, email: 'othello@acme.test', isActive: true },
    { userId: 13, email: 'gone@acme.test', isActive: false },
  ],
  ...overrides,
});
const create = (drafts: DraftInput[], options: { ids?: number[]; syncEnabled?: boolean; facts?: DraftRecipientFacts } = {}): DraftsCommand => ({
  type: 'CreateDrafts',
  data: {
    userId: HAMLET, now: NOW, drafts, draftIds: options.ids ?? drafts.map((_, i) => 100 + i),
    syncEnabled: options.syncEnabled ?? true, facts: options.facts ?? facts(),
  },
});
const edit = (draftId: number, draft: DraftInput, syncEnabled = true): DraftsCommand => ({
  type: 'EditDraft', data: { userId: HAMLET, now: NOW, draftId, draft, syncEnabled, facts: facts() },
});
const remove = (draftId: number, syncEnabled = true): DraftsCommand => ({ type: 'DeleteDraft', data: { userId: HAMLET, now: NOW, draftId, syncEnabled } });
const removeAll = (): DraftsCommand => ({ type: 'DeleteAllDrafts', data: { userId: HAMLET, now: NOW } });

/** The single draft CreateDrafts makes of one input. */
const createdFrom = (input: DraftInput) => (given([]).when(create([input])).events()[0].data as { drafts: object[] }).drafts[0];

describe('draftsDecider', () => {
  describe('CreateDrafts', () => {
    it('creates the drafts of one request in one event, in order, with the allocated ids', () =>
      given([]).when(create([
        draftInput({ type: 'stream', to: [5], topic: 'sync drafts', content: 'Backend support', timestamp: 1595479019 }),
        draftInput({ type: 'private', to: [11], content: 'What if?', timestamp: 1595479020 }),
      ])).then([{
        type: 'DraftsCreated',
        data: {
          userId: HAMLET, at: NOW,
          drafts: [
            { draftId: 100, type: 'stream', to: [5], topic: 'sync drafts', content: 'Backend support', lastEditTime: 1595479019 },
            { draftId: 101, type: 'private', to: [11], topic: '', content: 'What if?', lastEditTime: 1595479020 },
          ],
        },
      }]));

    it('fills in the command\'s time when the timestamp is absent or null, to the microsecond', () => {
      expect(createdFrom(draftInput({ timestamp: undefined }))).toMatchObject({ lastEditTime: NOW_SECONDS });
      expect(createdFrom(draftInput({ timestamp: null }))).toMatchObject({ lastEditTime: NOW_SECONDS });
      expect(createdFrom(draftInput({ timestamp: 1.23456789 }))).toMatchObject({ lastEditTime: 1.234568 });
    });

    it('refuses a negative timestamp', () =>
      given([]).when(create([draftInput({ timestamp: -10.1 })])).thenThrows(InvalidDraftError, 'Timestamp must not be negative.'));

    it('strips the content, keeps leading spaces of later lines, and truncates it to 10,000 characters', () => {
      expect(createdFrom(draftInput({ content: '\n\n  code\n  more  \n\n' }))).toMatchObject({ content: 'code\n  more' });
      const long = createdFrom(draftInput({ content: 'x'.repeat(10_050) })) as { content: string };
      expect(long.content).toHaveLength(10_000);
      expect(long.content.endsWith('\n[message truncated]')).toBe(true);
    });

    it('refuses empty content and content with a NUL byte, with normalize_body\'s messages', () => {
      given([]).when(create([draftInput({ content: ' \n ' })])).thenThrows(MessageError, 'Message must not be empty');
      given([]).when(create([draftInput({ content: 'Some regular \u0000 content here' })])).thenThrows(MessageError, 'Message must not contain null bytes');
    });

    describe('channel drafts', () => {
      it('truncates the topic to 60 code points', () =>
        expect(createdFrom(draftInput({ type: 'stream', to: [5], topic: '🙂'.repeat(70) }))).toMatchObject({ topic: `${'🙂'.repeat(57)}...` }));

      it('refuses a topic with a NUL byte', () =>
        given([]).when(create([draftInput({ type: 'stream', to: [5], topic: 'thinking about \u0000' })]))
          .thenThrows(InvalidDraftError, 'Topic must not contain null bytes'));

      it('needs exactly one channel id', () => {
        given([]).when(create([draftInput({ type: 'stream', to: [] })])).thenThrows(InvalidDraftError, 'Must specify exactly 1 channel ID for channel messages');
        given([]).when(create([draftInput({ type: 'stream', to: [5, 5] })])).thenThrows(InvalidDraftError, 'Must specify exactly 1 channel ID for channel messages');
      });

      it('refuses a channel that does not exist or that the user cannot reach', () =>
        given([]).when(create([draftInput({ type: 'stream', to: [6] })])).thenThrows(InvalidChannelIdError, 'Invalid channel ID'));
    });

    describe('direct drafts', () => {
      it('ignores the topic and stores the other participants in ascending order', () => {
        expect(createdFrom(draftInput({ type: 'private', to: [12, 11], topic: 'ignored' }))).toMatchObject({ type: 'private', to: [11, 12], topic: '' });
        expect(createdFrom(draftInput({ type: 'private', to: [HAMLET, 12, 11, 12] }))).toMatchObject({ to: [11, 12] });
      });

      it('stores a conversation with oneself as the user alone, and with one other as that other', () => {
        expect(createdFrom(draftInput({ type: 'private', to: [HAMLET] }))).toMatchObject({ to: [HAMLET] });
        expect(createdFrom(draftInput({ type: 'private', to: [HAMLET, 11] }))).toMatchObject({ to: [11] });
      });

      it('refuses an id that is not an account, naming the lowest', () =>
        given([]).when(create([draftInput({ type: 'private', to: [99, 11, 98] })])).thenThrows(MessageError, 'Invalid user ID 98'));

      it('refuses a deactivated account', () =>
        given([]).when(create([draftInput({ type: 'private', to: [11, 13] })])).thenThrows(MessageError, "'gone@acme.test' is no longer using Zulip."));

      it('makes a direct draft without recipients unaddressed', () =>
        expect(createdFrom(draftInput({ type: 'private', to: [], topic: 'sync drafts' }))).toMatchObject({ type: '', to: [], topic: '' }));
    });

    it('makes an unaddressed draft lose its recipients and topic', () =>
      expect(createdFrom(draftInput({ type: '', to: [5, 11], topic: 'x' }))).toMatchObject({ type: '', to: [], topic: '' }));

    it('checks the drafts in order and each in Zulip\'s order: content, timestamp, topic, channel count, access', () => {
      given([]).when(create([draftInput({ type: 'stream', to: [6] }), draftInput({ content: '\u0000' })])).thenThrows(InvalidChannelIdError);
      given([]).when(create([draftInput({ type: 'stream', to: [], content: '\u0000' })])).thenThrows(MessageError, 'Message must not contain null bytes');
      given([]).when(create([draftInput({ type: 'stream', to: [6], timestamp: -1 })])).thenThrows(InvalidDraftError, 'Timestamp must not be negative.');
      given([]).when(create([draftInput({ type: 'stream', to: [], topic: '\u0000' })])).thenThrows(InvalidDraftError, 'Topic must not contain null bytes');
    });

    it('creates nothing for an empty list', () => given([]).when(create([])).thenNothingHappened());

    it('refuses everything while synchronization is off', () =>
      given([]).when(create([draftInput({ content: '\u0000' })], { syncEnabled: false })).thenThrows(DraftsSynchronizationDisabledError, 'User has disabled synchronizing drafts.'));

    it('never reuses an id', () =>
      given([draftsCreated([storedDraft({ draftId: 100 })])]).when(create([draftInput()])).thenThrows(Error, 'draft id 100 is already used'));
  });

  describe('EditDraft', () => {
    const existing = storedDraft({ draftId: 7, type: 'stream', to: [5], topic: 'drafts', content: 'The API should be good', lastEditTime: 1595505700 });

    it('replaces the whole draft, keeping the old version in the event', () =>
      given([draftsCreated([existing])])
        .when(edit(7, draftInput({ type: 'private', to: [11], content: 'Structured yet simple', timestamp: 1595505800 })))
        .then([{
          type: 'DraftEdited',
          data: {
            userId: HAMLET, draftId: 7, at: NOW, old: existing,
            new: { draftId: 7, type: 'private', to: [11], topic: '', content: 'Structured yet simple', lastEditTime: 1595505800 },
          },
        }]));

    it('answers 404 for a draft that does not exist (or was deleted), before looking at the new draft', () => {
      given([]).when(edit(7, draftInput({ content: '\u0000' }))).thenThrows(DraftDoesNotExistError, 'Draft does not exist');
      given([draftsCreated([existing]), draftsDeleted([7])]).when(edit(7, draftInput())).thenThrows(DraftDoesNotExistError);
    });

    it('validates the new draft like a new one', () =>
      given([draftsCreated([existing])]).when(edit(7, draftInput({ type: 'stream', to: [6] }))).thenThrows(InvalidChannelIdError));

    it('changes nothing when the draft is the same', () =>
      given([draftsCreated([existing])])
        .when(edit(7, { type: 'stream', to: [5], topic: 'drafts', content: 'The API should be good', timestamp: 1595505700 }))
        .thenNothingHappened());

    it('follows earlier edits', () => {
      const edited = { ...existing, content: 'v2' };
      given([draftsCreated([existing]), draftEdited(existing, edited)])
        .when(edit(7, { type: 'stream', to: [5], topic: 'drafts', content: 'v2', timestamp: 1595505700 }))
        .thenNothingHappened();
    });

    it('refuses while synchronization is off', () =>
      given([draftsCreated([existing])]).when(edit(7, draftInput(), false)).thenThrows(DraftsSynchronizationDisabledError));
  });

  describe('DeleteDraft', () => {
    it('deletes an existing draft', () =>
      given([draftsCreated([storedDraft({ draftId: 7 })])]).when(remove(7)).then([{ type: 'DraftsDeleted', data: { userId: HAMLET, draftIds: [7], at: NOW } }]));

    it('answers 404 for an unknown or already deleted draft', () => {
      given([]).when(remove(7)).thenThrows(DraftDoesNotExistError, 'Draft does not exist');
      given([draftsCreated([storedDraft({ draftId: 7 })]), draftsDeleted([7])]).when(remove(7)).thenThrows(DraftDoesNotExistError);
    });

    it('refuses while synchronization is off, even for an unknown draft', () =>
      given([]).when(remove(7, false)).thenThrows(DraftsSynchronizationDisabledError));
  });

  describe('DeleteAllDrafts', () => {
    it('deletes every remaining draft at once, whatever the setting', () =>
      given([draftsCreated([storedDraft({ draftId: 7 }), storedDraft({ draftId: 8 }), storedDraft({ draftId: 9 })]), draftsDeleted([8])])
        .when(removeAll())
        .thenMatches([{ type: 'DraftsDeleted', data: { userId: HAMLET, draftIds: [7, 9] } }]));

    it('does nothing without drafts', () => given([]).when(removeAll()).thenNothingHappened());
  });

  it('lists the channels and users a handler must look up', () =>
    expect(draftRecipientIds([
      draftInput({ type: 'stream', to: [5] }), draftInput({ type: 'stream', to: [6, 7] }),
      draftInput({ type: 'private', to: [11, 12] }), draftInput({ type: '', to: [13] }),
    ])).toEqual({ channelIds: [5], userIds: [11, 12] }));
});
