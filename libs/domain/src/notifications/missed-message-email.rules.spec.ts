import { VISIBILITY_POLICY } from '../messages/messages.events';
import {
  type EmailNotificationFacts,
  emailNotificationTrigger,
  includeRealmNameInSubject,
  isPresenceIdle,
  missedMessageDueAt,
} from './missed-message-email.rules';

const settings = {
  enable_offline_email_notifications: true,
  enable_stream_email_notifications: false,
  wildcard_mentions_notify: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
};
const sub = { is_muted: false, email_notifications: null, wildcard_mentions_notify: null };
const facts = (over: Partial<EmailNotificationFacts> = {}): EmailNotificationFacts => ({
  userId: 2,
  senderId: 1,
  isBot: false,
  direct: false,
  mentioned: false,
  streamWildcardMentioned: false,
  topicWildcardMentioned: false,
  senderMuted: false,
  settings,
  subscription: sub,
  ...over,
});

describe('emailNotificationTrigger (get_email_notification_trigger, idle)', () => {
  it('mails direct messages and personal mentions while enable_offline_email_notifications is on', () => {
    expect(emailNotificationTrigger(facts({ direct: true, subscription: undefined }))).toBe('private_message');
    expect(emailNotificationTrigger(facts({ mentioned: true }))).toBe('mentioned');
    const off = { ...settings, enable_offline_email_notifications: false };
    expect(emailNotificationTrigger(facts({ direct: true, settings: off }))).toBeNull();
    expect(emailNotificationTrigger(facts({ mentioned: true, settings: off }))).toBeNull();
  });

  it('never mails the sender, a bot, or someone who muted the sender', () => {
    expect(emailNotificationTrigger(facts({ direct: true, userId: 1 }))).toBeNull();
    expect(emailNotificationTrigger(facts({ direct: true, isBot: true }))).toBeNull();
    expect(emailNotificationTrigger(facts({ direct: true, senderMuted: true }))).toBeNull();
  });

  it('mails a plain channel message only with email notifications on, the channel setting first', () => {
    expect(emailNotificationTrigger(facts())).toBeNull();
    expect(emailNotificationTrigger(facts({ settings: { ...settings, enable_stream_email_notifications: true } }))).toBe('stream_email_notify');
    expect(emailNotificationTrigger(facts({ subscription: { ...sub, email_notifications: true } }))).toBe('stream_email_notify');
    expect(
      emailNotificationTrigger(facts({ settings: { ...settings, enable_stream_email_notifications: true }, subscription: { ...sub, email_notifications: false } })),
    ).toBeNull();
  });

  it('a muted channel or topic silences channel notifications and wildcards, not personal mentions', () => {
    const on = { ...sub, email_notifications: true };
    expect(emailNotificationTrigger(facts({ subscription: { ...on, is_muted: true } }))).toBeNull();
    expect(emailNotificationTrigger(facts({ subscription: { ...on, is_muted: true }, visibilityPolicy: VISIBILITY_POLICY.UNMUTED }))).toBe('stream_email_notify');
    expect(emailNotificationTrigger(facts({ subscription: on, visibilityPolicy: VISIBILITY_POLICY.MUTED }))).toBeNull();
    expect(emailNotificationTrigger(facts({ streamWildcardMentioned: true, subscription: { ...sub, is_muted: true } }))).toBeNull();
    expect(emailNotificationTrigger(facts({ mentioned: true, subscription: { ...sub, is_muted: true } }))).toBe('mentioned');
  });

  it('wildcard mentions follow wildcard_mentions_notify; followed topics have their own settings', () => {
    expect(emailNotificationTrigger(facts({ streamWildcardMentioned: true }))).toBe('stream_wildcard_mentioned');
    expect(emailNotificationTrigger(facts({ topicWildcardMentioned: true }))).toBe('topic_wildcard_mentioned');
    expect(emailNotificationTrigger(facts({ streamWildcardMentioned: true, subscription: { ...sub, wildcard_mentions_notify: false } }))).toBeNull();
    const followed = { visibilityPolicy: VISIBILITY_POLICY.FOLLOWED };
    expect(emailNotificationTrigger(facts({ ...followed, topicWildcardMentioned: true }))).toBe('topic_wildcard_mentioned_in_followed_topic');
    expect(emailNotificationTrigger(facts({ ...followed }))).toBe('followed_topic_email_notify');
    expect(emailNotificationTrigger(facts({ ...followed, settings: { ...settings, enable_followed_topic_email_notifications: false } }))).toBeNull();
  });
});

describe('idle and batching', () => {
  it('is idle without an active ping within 140 seconds', () => {
    expect(isPresenceIdle(null, 1000)).toBe(true);
    expect(isPresenceIdle(1000 - 140, 1000)).toBe(false);
    expect(isPresenceIdle(1000 - 141, 1000)).toBe(true);
  });

  it('joins a pending batch, else waits the batching period', () => {
    expect(missedMessageDueAt(null, 10_000, 120)).toBe(130_000);
    expect(missedMessageDueAt(50_000, 10_000, 120)).toBe(50_000);
  });

  it('names the organization in the subject as realm_name_in_email_notifications_policy says', () => {
    expect(includeRealmNameInSubject(1, 1)).toBe(false);
    expect(includeRealmNameInSubject(1, 2)).toBe(true);
    expect(includeRealmNameInSubject(2, 1)).toBe(true);
    expect(includeRealmNameInSubject(3, 2)).toBe(false);
  });
});
