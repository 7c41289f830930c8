import type { MessageContentEdited } from '@app/domain';
import { attachmentDeleted, attachmentUploaded, directMessageSent, messageSent, recorded, replay } from '@app/testing';
import { attachmentsProjection, uploadSpaceProjection } from './attachments.projection';

const PATH = '1/AbCdEfGhIjKlMnOpQrStUvWx/zulip.txt';
const link = `[zulip.txt](/user_uploads/${PATH})`;

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
    expect(docs.get(PATH)?.message_ids).toEqual([101, 120]);
  });

  it("ignores other users' messages and other organizations' messages", () => {
    const docs = replay(attachmentsProjection, recorded([
      attachmentUploaded(),
      messageSent({ messageId: 101, senderId: 11, content: link }),
      messageSent({ messageId: 102, senderId: 10, realmId: 2, content: link }),
    ]));
    expect(docs.get(PATH)?.message_ids).toEqual([]);
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
      expect(replay(attachmentsProjection, recorded([...sent, edited(link, 'gone')])).get(PATH)?.message_ids).toEqual([]);
      expect(replay(attachmentsProjection, recorded([...sent, edited(link, 'gone'), edited('gone', `back ${link}`)])).get(PATH)?.message_ids).toEqual([101]);
    });

    it('keeps the claim when the edit keeps the link', () =>
      expect(replay(attachmentsProjection, recorded([attachmentUploaded(), messageSent({ messageId: 101, content: link }), edited(link, `${link} edited`)])).get(PATH)?.message_ids).toEqual([101]));

    it("does not claim through another user's edit", () =>
      expect(replay(attachmentsProjection, recorded([attachmentUploaded(), edited('x', link, 11)])).get(PATH)?.message_ids).toEqual([]));
  });

  it('creates nothing for links to unknown files', () =>
    expect(replay(attachmentsProjection, recorded([messageSent({ content: link })])).size).toBe(0));

  it('removes the document when the file is deleted', () =>
    expect(replay(attachmentsProjection, recorded([attachmentUploaded(), attachmentDeleted()])).has(PATH)).toBe(false));

  it('is idempotent under redelivery', () => {
    const events = recorded([attachmentUploaded(), messageSent({ messageId: 101, content: link })]);
    expect(replay(attachmentsProjection, [...events, events[1]]).get(PATH)?.message_ids).toEqual([101]);
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
