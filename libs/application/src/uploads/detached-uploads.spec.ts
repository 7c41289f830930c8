import type { AttachmentDocument } from './uploads.documents';
import { detachedUploads, uploadPathIdsRemovedByEdit } from './detached-uploads';

const doc = (pathId: string, overrides: Partial<AttachmentDocument> = {}): AttachmentDocument => ({
  attachment_id: 1, realm_id: 1, owner_id: 10, name: pathId.split('/').pop()!, path_id: pathId, size: 6, content_type: 'text/plain',
  blob_key: 'uploads/1/x', create_time: 1767225600, message_ids: [100], ...overrides,
});
const A = '1/aaa/a.txt';
const B = '1/bbb/b.txt';
const edit = (prevContent: string, content: string, actorId = 10) => ({ actorId, messageId: 100, prevContent, content });

describe('detachedUploads (detached_uploads of a content edit)', () => {
  it('lists the path ids whose links the edit removed', () =>
    expect(uploadPathIdsRemovedByEdit(edit(`/user_uploads/${A} /user_uploads/${B}`, `/user_uploads/${B}`))).toEqual([A]));

  it("returns the actor's attachments no longer linked anywhere, as Attachment summaries", () =>
    expect(detachedUploads(edit(`[a](/user_uploads/${A})`, 'gone'), [doc(A)])).toEqual([
      { id: 1, name: 'a.txt', path_id: A, size: 6, create_time: 1767225600, message_ids: [] },
    ]));

  it('works on documents read after the edit was projected', () =>
    expect(detachedUploads(edit(`/user_uploads/${A}`, 'gone'), [doc(A, { message_ids: [] })])).toHaveLength(1));

  it('keeps files still linked by the new content or by another message', () => {
    expect(detachedUploads(edit(`/user_uploads/${A}`, `still /user_uploads/${A}`), [doc(A)])).toEqual([]);
    expect(detachedUploads(edit(`/user_uploads/${A}`, 'gone'), [doc(A, { message_ids: [99, 100] })])).toEqual([]);
  });

  it("ignores other users' files and documents the edit did not unlink", () => {
    expect(detachedUploads(edit(`/user_uploads/${A}`, 'gone', 11), [doc(A)])).toEqual([]);
    expect(detachedUploads(edit(`/user_uploads/${A}`, 'gone'), [doc(B)])).toEqual([]);
  });

  it('orders several by attachment id', () =>
    expect(detachedUploads(edit(`/user_uploads/${B} /user_uploads/${A}`, ''), [doc(B, { attachment_id: 2 }), doc(A)]).map((s) => s.id)).toEqual([1, 2]));
});
