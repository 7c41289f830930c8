import type { ApiMessage } from '../messages/message-format';
import { type MissedMessage, missedMessageMail } from './missed-message.mails';

const me = { id: 10, email: 'cordelia@acme.test', full_name: 'Cordelia Lear', is_mirror_dummy: false };
const person = (id: number, full_name: string) => ({ id, email: `u${id}@acme.test`, full_name, is_mirror_dummy: false });
const context = { recipient: { userId: 10, fullName: 'Cordelia Lear', email: 'cordelia@acme.test' }, realmName: 'Acme Corp', realmUrl: 'https://chat.acme.test', showContent: true, includeRealmName: false };

const channelMessage = (id: number, sender: [number, string], content: string, subject = 'castle'): ApiMessage =>
  ({ id, sender_id: sender[0], sender_full_name: sender[1], type: 'stream', stream_id: 5, display_recipient: 'Denmark', subject, content: `<p>${content}</p>`, recipient_id: 50 }) as ApiMessage;
const directMessage = (id: number, others: [number, string][]): ApiMessage =>
  ({ id, sender_id: others[0][0], sender_full_name: others[0][1], type: 'private', display_recipient: [me, ...others.map(([i, n]) => person(i, n))], subject: '', content: '<p>hi</p>', recipient_id: 60 }) as ApiMessage;
const missed = (message: ApiMessage, trigger: MissedMessage['trigger'] = 'stream_email_notify', rawContent = 'text'): MissedMessage => ({ message, trigger, rawContent });

describe('the missed-message mail (do_send_missedmessage_events_reply_in_zulip)', () => {
  it('groups consecutive messages of a sender, in the order sent, and links the topic', () => {
    const mail = missedMessageMail(context, [
      missed(channelMessage(3, [1, 'Othello'], 'c'), 'stream_email_notify', 'third'),
      missed(channelMessage(1, [1, 'Othello'], 'a'), 'stream_email_notify', 'first\nsecond line'),
      missed(channelMessage(2, [2, 'Iago'], 'b'), 'stream_email_notify', 'middle'),
    ]);
    expect(mail.subject).toBe('#Denmark > castle');
    expect(mail.text).toContain('#Denmark > castle\n\nOthello:\n> first\n> second line\n\nIago:\n> middle\n\nOthello:\n> third\n');
    expect(mail.text).toContain('Reply in Zulip: https://chat.acme.test/#narrow/channel/5-Denmark/topic/castle');
    expect(mail.text).toContain('You are receiving this because you have email notifications enabled for #Denmark.');
  });

  it('names a resolved topic by its bare name, and the organization when asked', () => {
    const mail = missedMessageMail({ ...context, includeRealmName: true }, [missed(channelMessage(1, [1, 'Othello'], 'done', '✔ bug'), 'mentioned')]);
    expect(mail.subject).toBe('[resolved] #Denmark > bug [Acme Corp]');
    expect(mail.text).toContain('You are receiving this because you were personally mentioned.');
  });

  it('names group conversations as Zulip does', () => {
    const subject = (others: [number, string][]) => missedMessageMail(context, [missed(directMessage(1, others), 'private_message')]).subject;
    expect(subject([[1, 'Othello']])).toBe('DMs with Othello');
    expect(subject([[1, 'Othello'], [2, 'Iago']])).toBe('Group DMs with Othello and Iago');
    expect(subject([[1, 'Othello'], [2, 'Iago'], [3, 'Hamlet']])).toBe('Group DMs with Othello, Iago, and Hamlet');
    expect(subject([[1, 'Othello'], [2, 'Iago'], [3, 'Hamlet'], [4, 'Polonius']])).toBe('Group DMs with Othello, Iago, and 2 others');
  });

  it('without message content: no names, no content', () => {
    const mail = missedMessageMail({ ...context, showContent: false }, [missed(directMessage(1, [[1, 'Othello']]), 'private_message', 'the secret')]);
    expect(mail.subject).toBe('New messages');
    expect(`${mail.text}${mail.html}`).not.toMatch(/the secret|Othello/);
  });
});
