import { DomainError, type Actor, defaultUserSettings, type UserSettingValues } from '@app/domain';
import type { ChannelQueries } from '../channels/channel.queries';
import type { UserSettingsQueries } from '../settings/user-settings.queries';
import type { SubscriptionQueries } from '../subscriptions/subscription.queries';
import type { UserQueries } from '../users/user.queries';
import { SendTypingNotificationCommand } from './send-typing-notification.command';
import { SendTypingNotificationHandler } from './send-typing-notification.handler';
import { type TypingRequest, typingConversation, typingReceivers } from './typing-notification.rules';

const on = defaultUserSettings();

describe('typingConversation (send_notification_backend)', () => {
  it('a channel notification needs stream_id and topic, then the sender\'s send_stream_typing_notifications', () => {
    expect(typingConversation(10, { op: 'start', type: 'channel', stream_id: 3, topic: 'plans' }, on)).toEqual({ kind: 'stream', streamId: 3, topic: 'plans' });
    expect(typingConversation(10, { op: 'stop', type: 'stream', stream_id: 3, topic: '' }, on)).toEqual({ kind: 'stream', streamId: 3, topic: '' });
    expect(() => typingConversation(10, { op: 'start', type: 'stream', topic: 'plans' }, on)).toThrow("Missing 'stream_id' argument");
    expect(() => typingConversation(10, { op: 'start', type: 'stream', stream_id: 3 }, on)).toThrow('Missing topic');
    const off = { ...on, send_stream_typing_notifications: false };
    expect(() => typingConversation(10, { op: 'start', type: 'stream', stream_id: 3, topic: 'plans' }, off)).toThrow('User has disabled typing notifications for channel messages');
    // The missing argument is reported before the setting.
    expect(() => typingConversation(10, { op: 'start', type: 'stream', topic: 'plans' }, off)).toThrow("Missing 'stream_id' argument");
  });

  it('a direct notification (the default kind, also "private") goes to the recipients and the sender, each once', () => {
    expect(typingConversation(10, { op: 'start', to: [12, 11, 12] }, on)).toEqual({ kind: 'direct', userIds: [12, 11, 10] });
    expect(typingConversation(10, { op: 'start', type: 'private', to: [10] }, on)).toEqual({ kind: 'direct', userIds: [10] });
    expect(() => typingConversation(10, { op: 'start', type: 'direct' }, on)).toThrow("Missing 'to' argument");
    expect(() => typingConversation(10, { op: 'start', to: [] }, on)).toThrow("Empty 'to' list");
    const off = { ...on, send_private_typing_notifications: false };
    expect(() => typingConversation(10, { op: 'start', to: [11] }, off)).toThrow('User has disabled typing notifications for direct messages');
  });

  it('refuses with DomainError (400 BAD_REQUEST in the envelope)', () => {
    const error = (() => {
      try {
        typingConversation(10, { op: 'start', to: [] }, on);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
  });
});

describe('typingReceivers', () => {
  it('keeps users with receives_typing_notifications on, and users whose settings are unknown', () => {
    const settings = new Map([
      [1, { receives_typing_notifications: true }],
      [2, { receives_typing_notifications: false }],
    ]);
    expect(typingReceivers([1, 2, 3], settings)).toEqual([1, 3]);
  });
});

describe('SendTypingNotificationHandler', () => {
  const actor: Actor = { realmId: 1, userId: 10, role: 'member' } as Actor;
  const user = (id: number, isActive = true) => ({ user_id: id, email: `u${id}@acme.test`, is_active: isActive });
  const known = new Map([10, 11, 12].map((id) => [id, user(id, id !== 12)]));
  const settingsOf = new Map<number, UserSettingValues>([[11, { ...on, receives_typing_notifications: true }]]);

  function handler(subscribers: number[] = []) {
    const users = {
      mustFindById: async (_realm: number, id: number) => known.get(id)!,
      byId: async (_realm: number, id: number) => known.get(id) ?? null,
    } as unknown as UserQueries;
    const settings = {
      settingsOf: async (id: number) => settingsOf.get(id) ?? on,
      settingsOfMany: async (ids: number[]) => new Map(ids.map((id) => [id, settingsOf.get(id) ?? { ...on, receives_typing_notifications: id !== 13 }])),
    } as unknown as UserSettingsQueries;
    const channels = { accessById: async (_actor: Actor, id: number) => ({ channel: { stream_id: id } }) } as unknown as ChannelQueries;
    const subscriptions = { subscriberIds: async () => subscribers } as unknown as SubscriptionQueries;
    return new SendTypingNotificationHandler(users, settings, channels, subscriptions);
  }
  const run = (request: TypingRequest, subscribers?: number[]) => handler(subscribers).execute(new SendTypingNotificationCommand({ actor }, request));

  it('a direct notification lists every recipient and reaches the active ones', async () => {
    expect(await run({ op: 'start', to: [11, 12] })).toEqual({
      notification: {
        userIds: [11, 10],
        event: {
          type: 'typing', message_type: 'direct', op: 'start', sender: { user_id: 10, email: 'u10@acme.test' },
          recipients: [{ user_id: 11, email: 'u11@acme.test' }, { user_id: 12, email: 'u12@acme.test' }, { user_id: 10, email: 'u10@acme.test' }],
        },
      },
    });
  });

  it('refuses an unknown recipient', async () => {
    await expect(run({ op: 'start', to: [11, 99] })).rejects.toThrow('Invalid user ID 99');
  });

  it('a channel notification reaches the subscribers receiving typing notifications', async () => {
    expect(await run({ op: 'stop', type: 'channel', stream_id: 7, topic: 'plans' }, [10, 11, 13])).toEqual({
      notification: {
        userIds: [10, 11],
        event: { type: 'typing', message_type: 'stream', op: 'stop', sender: { user_id: 10, email: 'u10@acme.test' }, stream_id: 7, topic: 'plans' },
      },
    });
  });

  it('answers no notification when nobody receives it', async () => {
    expect(await run({ op: 'start', type: 'channel', stream_id: 7, topic: 'plans' }, [13])).toEqual({ notification: null });
  });
});
