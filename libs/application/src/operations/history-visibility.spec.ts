import { HIDDEN, HISTORY_RULES, redactEvent } from './history-visibility';

describe('audit history visibility (per event type)', () => {
  it('hides secrets from every reader, the operator included', () => {
    const created = { realmId: 1, userId: 5, email: 'a@x.test', apiKey: 'K'.repeat(32), passwordHash: 'scrypt$abc', actorId: null, at: 'T' };
    expect(redactEvent('UserCreated', created, { values: 'all' })).toEqual({
      data: { ...created, apiKey: HIDDEN, passwordHash: HIDDEN },
      hidden: ['apiKey', 'passwordHash'],
    });
    const requested = { realmId: 1, userId: 5, oldEmail: 'a', newEmail: 'b', keyDigest: 'd1g', expiresAt: 'E', revokedKeyDigests: ['old'], actorId: 5, at: 'T' };
    expect(redactEvent('EmailChangeRequested', requested, { values: 'all' }).data).toEqual({ ...requested, keyDigest: HIDDEN, revokedKeyDigests: HIDDEN });
    const pushed = { realmId: 1, userId: 5, deviceId: 2, pushKey: 'pk', pushKeyId: 9, tokenKind: 'fcm', tokenId: 'id', bouncerPublicKey: 'pub', encryptedPushRegistration: 'enc', at: 'T' };
    expect(redactEvent('PushDeviceRegistered', pushed, { values: 'all' }).data).toEqual({ ...pushed, pushKey: HIDDEN, encryptedPushRegistration: HIDDEN });
    // The current shape: the entries and digests that stand for the secrets are hidden too.
    const registered = { ...pushed, pushKey: undefined, encryptedPushRegistration: undefined, pushKeyEntryId: 'e1', pushKeyDigest: 'd', registrationEntryId: 'e2', releasedEntryIds: ['e0'] };
    expect(redactEvent('PushDeviceRegistered', registered, { values: 'all' }).data).toMatchObject({
      pushKeyEntryId: HIDDEN, pushKeyDigest: HIDDEN, registrationEntryId: HIDDEN, releasedEntryIds: HIDDEN, tokenId: 'id', pushKeyId: 9,
    });
    const added = { realmId: 1, userId: 5, kind: 'fcm', tokenEntryId: 'e3', tokenDigest: 'd2', tokenId: 'id', iosAppId: null, at: 'T' };
    expect(redactEvent('LegacyPushTokenAdded', added, { values: 'all' }).data).toEqual({ ...added, tokenEntryId: HIDDEN, tokenDigest: HIDDEN });
  });

  it('hides an account\'s real addresses from a reader its email_address_visibility excludes', () => {
    const created = { realmId: 1, userId: 5, email: 'a@x.test', apiKey: 'K', passwordHash: 'h', actorId: null, at: 'T' };
    expect(HISTORY_RULES.UserCreated).toMatchObject({ addresses: { user: 'userId', fields: ['email'] } });
    expect(redactEvent('UserCreated', created, { values: 'all', hidden: ['email'] })).toEqual({
      data: { ...created, email: HIDDEN, apiKey: HIDDEN, passwordHash: HIDDEN },
      hidden: ['email', 'apiKey', 'passwordHash'],
    });
    const changed = { realmId: 1, userId: 5, oldEmail: 'a@x.test', newEmail: 'b@x.test', actorId: 5, at: 'T' };
    expect(redactEvent('UserEmailChanged', changed, { values: 'all', hidden: HISTORY_RULES.UserEmailChanged.read === 'administrators' ? HISTORY_RULES.UserEmailChanged.addresses!.fields : [] }).data)
      .toEqual({ ...changed, oldEmail: HIDDEN, newEmail: HIDDEN });
  });

  it('catches a secret-named field a rule forgot, at any depth', () => {
    expect(redactEvent('RealmPropertyChanged', { realmId: 1, apiKey: 'k', nested: [{ password: 'p', token: 't', keep: 1 }] }, { values: 'all' }).data).toEqual({
      realmId: 1, apiKey: HIDDEN, nested: [{ password: HIDDEN, token: HIDDEN, keep: 1 }],
    });
  });

  it("shows another user's own data as the event, its values hidden", () => {
    const draft = { userId: 5, drafts: [{ draftId: 1, content: 'secret plan' }], at: 'T' };
    expect(redactEvent('DraftsCreated', draft, { values: 'open' })).toEqual({ data: { userId: 5, drafts: HIDDEN, at: 'T' }, hidden: ['drafts'] });
    expect(redactEvent('DraftsCreated', draft, { values: 'all' }).data).toEqual(draft);
    const setting = { realmId: 1, userId: 5, property: 'color_scheme', oldValue: 1, newValue: 2, actorId: 5, editedBySelf: true, at: 'T' };
    expect(redactEvent('UserSettingChanged', setting, { values: 'open' }).data).toEqual({ ...setting, oldValue: HIDDEN, newValue: HIDDEN });
  });

  it('hides a message the reader may not read, keeping who, when and which message', () => {
    const sent = { realmId: 1, messageId: 7, senderId: 5, recipient: { type: 'direct', participantIds: [5, 6] }, content: 'psst', renderedContent: '<p>psst</p>', at: 'T' };
    expect(redactEvent('MessageSent', sent, { values: 'open' }).data).toEqual({ realmId: 1, messageId: 7, senderId: 5, recipient: HIDDEN, content: HIDDEN, renderedContent: HIDDEN, at: 'T' });
    expect(redactEvent('ReactionAdded', { realmId: 1, messageId: 7, userId: 6, emojiName: 'car', at: 'T' }, { values: 'open' }).data).toEqual({ realmId: 1, messageId: 7, userId: 6, emojiName: HIDDEN, at: 'T' });
  });

  it('without edit history, shows only what the message is now', () => {
    const current = { content: 'v3', streamId: 2, topic: 'now' };
    const sent = { realmId: 1, messageId: 7, senderId: 5, recipient: { type: 'stream', streamId: 2, streamName: 'x', topic: 'then' }, content: 'v1', renderedContent: '<p>v1</p>', at: 'T' };
    expect(redactEvent('MessageSent', sent, { values: 'current', current }).hidden).toEqual(['recipient', 'content', 'renderedContent']);
    const edited = { realmId: 1, messageId: 7, editorId: 5, prevContent: 'v2', content: 'v3', prevRenderedContent: '<p>v2</p>', renderedContent: '<p>v3</p>', at: 'T' };
    expect(redactEvent('MessageContentEdited', edited, { values: 'current', current }).data).toEqual({ ...edited, prevContent: HIDDEN, prevRenderedContent: HIDDEN });
    const moved = { realmId: 1, targetMessageId: 7, messageIds: [7], origStreamId: 2, origTopic: 'then', streamId: 2, streamName: 'x', topic: 'now', editorId: 5, at: 'T' };
    expect(redactEvent('MessagesMoved', moved, { values: 'current', current }).hidden).toEqual(['origStreamId', 'origTopic']);
    // With edit history, every version.
    expect(redactEvent('MessageContentEdited', edited, { values: 'all' }).hidden).toEqual([]);
  });

  it('shows only who and when of an event type nobody decided on', () => {
    expect(HISTORY_RULES.SomethingNew).toBeUndefined();
    expect(redactEvent('SomethingNew', { realmId: 1, userId: 5, content: 'x', actorId: 5, at: 'T' }, { values: 'all' }).data).toEqual({
      realmId: 1, userId: HIDDEN, content: HIDDEN, actorId: 5, at: 'T',
    });
  });
});
