import type { AttachmentDocument } from '@app/application';
import type { MessageContentEdited, MessageDeleted } from '@app/domain';
import { attachmentDeleted, attachmentUploaded, directMessageSent, messageSent, recorded, replay } from '@app/testing';
import { attachmentsProjection, uploadSpaceProjection } from './attachments.projection';

const PATH = '1/AbCdEfGhIjKlMnOpQrStUvWx/zulip.txt';
const link = `[zulip.txt](/user_uploads/${PATH})`;
/** The file's claiming messages after a replay. */
const claims = (docs: Map<string, object>) => (docs.get(PATH) as AttachmentDocument | undefined)?.message_ids;
const deleted = (messageId: number, senderId = 10): MessageDeleted => ({
  type: 'MessageDeleted',
  data: { realmId: 1, messageId, senderId, messageType: 'stream', streamId: 5, topic: 'greetings', actorId: senderId, at: '2026-01-01T00:02:00.000Z' },
});

describe('attachmentsProjection', () => {
  it("stores Zulip's Attachment keyed by path id", () =>
    expect(replay(attachmentsProjection, recorded([attachmentUploaded()])).get(PATH)).toEqual({
      attachment_id: 1, realm_id: 1, owner_id: 10, name: 'zulip.txt', path_id: PATH, size: 6, content_type: 'text/plain',
      blob_key: 'uploads/1/AbCdEfGhIjKlMnOpQrStUvWx', create_time: 1767225600, message_ids: [],
    }));

  it("claims the file for the owner's messages that link it, in id order, once each", () => {
    const docs = replay(attachmentsProjection, recorded([
      attachmentUploaded(),
      directMessageSent(120, 10, [10, 11], `${link} and again ${link}`),
      messageSent({ messageId: 101, senderId: 10, content: `see /user_uploads/${PATH}` }),
    ]));
    expect(claims(docs)).toEqual([101, 120]);
  });

  it("ignores other users' messages and other organizations' messages", () => {
    const docs = replay(attachmentsProjection, recorded([
      attachmentUploaded(),
      messageSent({ messageId: 101, senderId: 11, content: link }),
      messageSent({ messageId: 102, senderId: 10, realmId: 2, content: link }),
    ]));
    expect(claims(docs)).toEqual([]);
  });

  describe('content edits', () => {
    const edited = (prevContent: string, content: string, editorId = 10): MessageContentEdited => ({
      type: 'MessageContentEdited',
      data: {
        realmId: 1, messageId: 101, editorId, prevContent, content, prevRenderedContent: '', renderedContent: '', isMeMessage: false, hasLink: false,
        hasImage: false, hasAttachment: false, mentionedUserIds: [], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [], at: '2026-01-01T00:01:00.000Z',
      },
    });

    it('releases the file when an edit removes its link, and claims it when an edit adds one', () => {
      const sent = [attachmentUploaded(), messageSent({ messageId: 101, content: link })];
      expect(claims(replay(attachmentsProjection, recorded([...sent, edited(link, 'gone')])))).toEqual([]);
      expect(claims(replay(attachmentsProjection, recorded([...sent, edited(link, 'gone'), edited('gone', `back ${link}`)])))).toEqual([101]);
    });

    it('keeps the claim when the edit keeps the link', () =>
      expect(claims(replay(attachmentsProjection, recorded([attachmentUploaded(), messageSent({ messageId: 101, content: link }), edited(link, `${link} edited`)])))).toEqual([101]));

    it("does not claim through another user's edit", () =>
      expect(claims(replay(attachmentsProjection, recorded([attachmentUploaded(), edited('x', link, 11)])))).toEqual([]));
  });

  it('creates no attachment for links to unknown files (only the message\'s links)', () =>
    expect([...replay(attachmentsProjection, recorded([messageSent({ messageId: 101, content: link })])).keys()]).toEqual(['links:101']));

  describe('deletions', () => {
    const other = '1/ZyXwVuTsRqPoNmLkJiHgFeDc/other.txt';
    const both = [
      attachmentUploaded(),
      attachmentUploaded({ attachmentId: 2, pathId: other }),
      messageSent({ messageId: 101, content: `${link} [o](/user_uploads/${other})` }),
      messageSent({ messageId: 102, content: link }),
      messageSent({ messageId: 103, content: 'no link' }),
    ];

    it('a deleted message unlinks every file it linked, and its links document goes; other messages keep theirs', () => {
      const docs = replay(attachmentsProjection, recorded([...both, deleted(101), deleted(103)]));
      expect(claims(docs)).toEqual([102]);
      expect((docs.get(other) as AttachmentDocument).message_ids).toEqual([]);
      expect([...docs.keys()].filter((id) => id.startsWith('links:'))).toEqual(['links:102']);
    });

    it('follows the links as the last edit left them', () => {
      const edited: MessageContentEdited = {
        type: 'MessageContentEdited',
        data: {
          realmId: 1, messageId: 101, editorId: 10, prevContent: link, content: `only [o](/user_uploads/${other})`, prevRenderedContent: '', renderedContent: '', isMeMessage: false, hasLink: false,
          hasImage: false, hasAttachment: false, mentionedUserIds: [], streamWildcardMentioned: false, topicWildcardMentionedUserIds: [], at: '2026-01-01T00:01:00.000Z',
        },
      };
      const docs = replay(attachmentsProjection, recorded([attachmentUploaded(), attachmentUploaded({ attachmentId: 2, pathId: other }), messageSent({ messageId: 101, content: link }), edited]));
      expect(docs.get('links:101')).toEqual({ message_id: 101, path_ids: [other] });
      const after = replay(attachmentsProjection, recorded([attachmentUploaded(), attachmentUploaded({ attachmentId: 2, pathId: other }), messageSent({ messageId: 101, content: link }), edited, deleted(101)]));
      expect(claims(after)).toEqual([]);
      expect((after.get(other) as AttachmentDocument).message_ids).toEqual([]);
      expect(after.has('links:101')).toBe(false);
    });
  });

  it('removes the document when the file is deleted', () =>
    expect(replay(attachmentsProjection, recorded([attachmentUploaded(), attachmentDeleted()])).has(PATH)).toBe(false));

  it('is idempotent under redelivery', () => {
    const events = recorded([attachmentUploaded(), messageSent({ messageId: 101, content: link })]);
    expect(claims(replay(attachmentsProjection, [...events, events[1]]))).toEqual([101]);
  });
});

describe('uploadSpaceProjection', () => {
  it('sums the sizes of the organization\'s files', () =>
    expect(replay(uploadSpaceProjection, recorded([
      attachmentUploaded(),
      attachmentUploaded({ attachmentId: 2, pathId: '1/x/y.txt', size: 100 }),
      attachmentDeleted(),
    ])).get('1')).toEqual({ realm_id: 1, bytes: 100 }));
});
