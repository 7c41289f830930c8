import { draftEdited, draftsCreated, draftsDeleted, recorded, replay, storedDraft } from '@app/testing';
import { draftsProjection } from './drafts.projection';

const after = (events: { type: string; data: object }[]) => replay(draftsProjection, recorded(events, 'drafts-10'));

describe('draftsProjection', () => {
  it('stores each draft in the shape of Draft.to_dict, with its owner and exact edit time', () => {
    const docs = after([draftsCreated([
      storedDraft({ draftId: 4, type: 'stream', to: [5], topic: 'sync', content: 'A', lastEditTime: 1595479019.75 }),
      storedDraft({ draftId: 5, type: 'private', to: [11, 12], content: 'B', lastEditTime: 1595479020 }),
    ])]);
    expect([...docs.keys()]).toEqual(['4', '5']);
    expect(docs.get('4')).toEqual({ id: 4, type: 'stream', to: [5], topic: 'sync', content: 'A', timestamp: 1595479019, user_id: 10, last_edit_time: 1595479019.75 });
    expect(docs.get('5')).toMatchObject({ id: 5, type: 'private', to: [11, 12], topic: '', timestamp: 1595479020 });
  });

  it('replaces a draft when it is edited', () => {
    const old = storedDraft({ draftId: 4, content: 'v1' });
    const doc = after([draftsCreated([old]), draftEdited(old, { ...old, type: 'stream', to: [5], topic: 't', content: 'v2', lastEditTime: 1800000000 })]).get('4');
    expect(doc).toEqual({ id: 4, type: 'stream', to: [5], topic: 't', content: 'v2', timestamp: 1800000000, user_id: 10, last_edit_time: 1800000000 });
  });

  it('removes deleted drafts, one or many at once', () => {
    const docs = after([draftsCreated([storedDraft({ draftId: 4 }), storedDraft({ draftId: 5 }), storedDraft({ draftId: 6 })]), draftsDeleted([4]), draftsDeleted([5, 6])]);
    expect(docs.size).toBe(0);
  });

  it('is the same under redelivery', () => {
    const events = recorded([draftsCreated([storedDraft({ draftId: 4 })]), draftsDeleted([4]), draftsCreated([storedDraft({ draftId: 5 })])], 'drafts-10');
    expect(replay(draftsProjection, [...events, ...events.slice(2)])).toEqual(replay(draftsProjection, events));
  });

  it('ignores an edit of a draft it never saw', () => {
    const old = storedDraft({ draftId: 9 });
    expect(after([draftEdited(old, old)]).size).toBe(0);
  });
});
