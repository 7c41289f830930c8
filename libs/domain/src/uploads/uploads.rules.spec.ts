import { canReadAttachment, isUploadPathId, linkedUploadPathIds, type LinkingMessageFacts, sanitizeUploadName, servedInline, uploadContentType, uploadPathId } from '@app/domain';

describe('upload rules', () => {
  describe('sanitizeUploadName (Zulip sanitize_name)', () => {
    it.each([
      ['zulip.txt', 'zulip.txt'],
      ['my file (1).txt', 'my-file-1.txt'],
      ['  spaced  --  name .pdf ', 'spaced-name-.pdf'],
      ['résumé.pdf', 'résumé.pdf'],
      ['ﬁle.txt', 'file.txt'], // NFKC
      ['<script>.html', 'script.html'],
      ['../../etc/passwd', '....etcpasswd'],
      ['', 'uploaded-file'],
      ['.', 'uploaded-file'],
      ['..', 'uploaded-file'],
      ['???', 'uploaded-file'],
    ])('%j → %j', (name, expected) => expect(sanitizeUploadName(name)).toBe(expected));

    it('keeps the end of a very long name (its extension)', () => expect(sanitizeUploadName('a'.repeat(500) + '.txt')).toMatch(/^a{146}\.txt$/));
  });

  it('builds path ids of Zulip\'s shape', () => {
    expect(uploadPathId(2, 'AbCdEfGhIjKlMnOpQrStUvWx', 'my file.txt')).toBe('2/AbCdEfGhIjKlMnOpQrStUvWx/my-file.txt');
    expect(isUploadPathId('2/AbCdEfGhIjKlMnOpQrStUvWx/my-file.txt')).toBe(true);
    expect(isUploadPathId('2/AbCd/../x')).toBe(false);
    expect(isUploadPathId('2/AbCd/x/y')).toBe(false);
    expect(isUploadPathId('2/AbCd/..')).toBe(false);
  });

  describe('linkedUploadPathIds', () => {
    it('finds Markdown links, bare paths and full URLs, each once, in order', () =>
      expect(
        linkedUploadPathIds('[a](/user_uploads/1/abc/a.txt) and http://chat.example.com/user_uploads/1/def/b-c.pdf, again /user_uploads/1/abc/a.txt'),
      ).toEqual(['1/abc/a.txt', '1/def/b-c.pdf']));

    it('decodes percent-escapes of non-ASCII names', () =>
      expect(linkedUploadPathIds('[r](/user_uploads/1/abc/r%C3%A9sum%C3%A9.pdf)')).toEqual(['1/abc/résumé.pdf']));

    it('offers both readings of a trailing dot', () => expect(linkedUploadPathIds('see /user_uploads/1/abc/a.txt.')).toEqual(['1/abc/a.txt.', '1/abc/a.txt']));

    it('ignores content without upload links and temporary URLs', () => {
      expect(linkedUploadPathIds('hello')).toEqual([]);
      expect(linkedUploadPathIds('/user_uploads/temporary/abc/a.txt')).toEqual([]);
    });
  });

  describe('content types', () => {
    it('takes the declared type, else guesses from the name', () => {
      expect(uploadContentType('image/png', 'x.bin')).toBe('image/png');
      expect(uploadContentType('Text/Plain; charset=utf-8', 'x')).toBe('text/plain');
      expect(uploadContentType('application/octet-stream', 'photo.JPG')).toBe('image/jpeg');
      expect(uploadContentType(null, 'notes')).toBe('application/octet-stream');
      expect(uploadContentType('not a type', 'a.pdf')).toBe('application/pdf');
    });

    it("serves only Zulip's INLINE_MIME_TYPES inline", () => {
      expect(servedInline('image/png')).toBe(true);
      expect(servedInline('image/png', true)).toBe(false);
      expect(servedInline('image/svg+xml')).toBe(false);
      expect(servedInline('text/html')).toBe(false);
    });
  });

  describe('canReadAttachment (validate_attachment_request)', () => {
    const owner = { ownerId: 10 };
    const member = { userId: 11, role: 'member' };
    const guest = { userId: 12, role: 'guest' };
    const channel = (inviteOnly: boolean, historyPublicToSubscribers: boolean, subscribed: boolean, hasRow = false): LinkingMessageFacts => ({
      type: 'stream', hasRow, subscribed, channel: { inviteOnly, historyPublicToSubscribers },
    });

    it('the owner always', () => expect(canReadAttachment({ userId: 10, role: 'guest' }, owner, [])).toBe(true));
    it('nobody else without a linking message', () => expect(canReadAttachment({ userId: 2, role: 'administrator' }, owner, [])).toBe(false));
    it('recipients of a direct message', () => {
      expect(canReadAttachment(guest, owner, [{ type: 'private', hasRow: true }])).toBe(true);
      expect(canReadAttachment(member, owner, [{ type: 'private', hasRow: false }])).toBe(false);
    });
    it('public channels: members, not guests unless they received it', () => {
      expect(canReadAttachment(member, owner, [channel(false, true, false)])).toBe(true);
      expect(canReadAttachment(guest, owner, [channel(false, true, false)])).toBe(false);
      expect(canReadAttachment(guest, owner, [channel(false, true, true)])).toBe(true);
    });
    it('private channels: shared history for subscribers, protected history for those who received it', () => {
      expect(canReadAttachment(member, owner, [channel(true, true, true)])).toBe(true);
      expect(canReadAttachment(member, owner, [channel(true, true, false)])).toBe(false);
      expect(canReadAttachment(member, owner, [channel(true, false, true)])).toBe(false);
      expect(canReadAttachment(member, owner, [channel(true, false, true, true)])).toBe(true);
    });
    it('a deleted channel grants nothing', () =>
      expect(canReadAttachment(member, owner, [{ type: 'stream', hasRow: false, subscribed: false, channel: null }])).toBe(false));
  });
});
