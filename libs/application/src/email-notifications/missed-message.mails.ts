import { type EmailNotificationTrigger, MENTION_TRIGGERS, RESOLVED_TOPIC_PREFIX, encodeChannel, escapeHtml, hashUtilEncode } from '@app/domain';
import type { MailRequest } from '../email/mailer';
import type { ApiMessage, DisplayRecipientUser } from '../messages/message-format';

/** The From name of missed-message emails (Zulip's "{INSTALLATION_NAME} notifications"). */
export const NOTIFICATIONS_FROM_NAME = 'Zulip notifications';

/** One missed message of a conversation, as the mail shows it. */
export type MissedMessage = { message: ApiMessage; rawContent: string; trigger: EmailNotificationTrigger };

export type MissedMessageMailContext = {
  recipient: { userId: number; fullName: string; email: string };
  realmName: string;
  realmUrl: string;
  /** message_content_in_email_notifications: false leaves the content (and names) out. */
  showContent: boolean;
  includeRealmName: boolean;
};

const otherParticipants = (message: ApiMessage, userId: number): DisplayRecipientUser[] =>
  Array.isArray(message.display_recipient) ? message.display_recipient.filter((u) => u.id !== userId) : [];

/** Zulip's group DM display name: "A and B", "A, B, and C", "A, B, and 2 others". */
function groupDisplayName(names: string[]): string {
  if (names.length === 2) return names.join(' and ');
  if (names.length === 3) return `${names[0]}, ${names[1]}, and ${names[2]}`;
  return `${names.slice(0, 2).join(', ')}, and ${names.length - 2} others`;
}

/** zerver/lib/url_encoding.py personal_narrow_url / direct_message_group_narrow_url / topic_narrow_url. */
function narrowUrl(realmUrl: string, message: ApiMessage, userId: number, withNames: boolean): string {
  if (message.type === 'stream') {
    return `${realmUrl}/#narrow/channel/${encodeChannel(message.stream_id!, String(message.display_recipient))}/topic/${hashUtilEncode(message.subject)}`;
  }
  const others = otherParticipants(message, userId);
  if (others.length <= 1) {
    // Clients read the ids before the first "-"; the name after it is for people, left out when
    // the mail hides names (message_content_in_email_notifications off).
    const slug = withNames ? message.sender_full_name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') : 'dm';
    return `${realmUrl}/#narrow/dm/${message.sender_id}-${hashUtilEncode(slug)}`;
  }
  return `${realmUrl}/#narrow/dm/${others.map((u) => u.id).sort((a, b) => a - b).join(',')}-group`;
}

/** Why the mail came (the footer of zerver/emails/missed_message). */
function reason(triggers: Set<EmailNotificationTrigger>, channel: string, topic: string): string | null {
  if (triggers.has('mentioned')) return 'You are receiving this because you were personally mentioned.';
  if (triggers.has('topic_wildcard_mentioned') || triggers.has('topic_wildcard_mentioned_in_followed_topic')) {
    return `You are receiving this because all topic participants were mentioned in #${channel} > ${topic}.`;
  }
  if (triggers.has('stream_wildcard_mentioned') || triggers.has('stream_wildcard_mentioned_in_followed_topic')) {
    return `You are receiving this because everyone was mentioned in #${channel}.`;
  }
  if (triggers.has('followed_topic_email_notify')) return 'You are receiving this because you have email notifications enabled for topics you follow.';
  if (triggers.has('stream_email_notify')) return `You are receiving this because you have email notifications enabled for #${channel}.`;
  return null;
}

/** Relative links of rendered content made absolute (relative_to_full_url), for mail clients. */
const absoluteLinks = (html: string, realmUrl: string): string => html.replace(/(href|src)="\/(?!\/)/g, `$1="${realmUrl}/`);

/**
 * zerver/lib/email_notifications.py do_send_missedmessage_events_reply_in_zulip: the mail for one
 * conversation (a direct message conversation, or a channel topic) of a user's batch, messages in
 * the order sent, consecutive ones of one sender under one name.
 */
export function missedMessageMail(c: MissedMessageMailContext, missed: MissedMessage[]): MailRequest {
  const messages = [...missed].sort((a, b) => a.message.id - b.message.id);
  const first = messages[0].message;
  const triggers = new Set(messages.map((m) => m.trigger));
  const mention = MENTION_TRIGGERS.some((t) => triggers.has(t));
  // The senders named: for a mention, only those who mentioned the user.
  const named = messages.filter((m) => first.type !== 'stream' || !mention || MENTION_TRIGGERS.includes(m.trigger));
  const senders = [...new Map(named.map((m) => [m.message.sender_id, m.message.sender_full_name])).values()];
  const channel = first.type === 'stream' ? String(first.display_recipient) : '';
  const resolved = first.subject.startsWith(RESOLVED_TOPIC_PREFIX);
  const topic = resolved ? first.subject.slice(RESOLVED_TOPIC_PREFIX.length) : first.subject;
  const others = otherParticipants(first, c.recipient.userId);

  let subject: string;
  let header: string;
  if (first.type === 'private' && others.length > 1) {
    const names = groupDisplayName(others.map((u) => u.full_name));
    subject = `Group DMs with ${names}`;
    header = `You and ${others.map((u) => u.full_name).join(', ')}`;
  } else if (first.type === 'private') {
    subject = `DMs with ${senders.join(', ')}`;
    header = `You and ${first.sender_full_name}`;
  } else {
    subject = `${resolved ? '[resolved] ' : ''}#${channel} > ${topic}`;
    header = `#${channel} > ${first.subject}`;
  }
  if (!c.showContent) subject = 'New messages';
  if (c.includeRealmName) subject += ` [${c.realmName}]`;

  const url = narrowUrl(c.realmUrl, first, c.recipient.userId, c.showContent);
  const why = reason(triggers, channel, topic);
  const footer = [
    ...(why ? [why] : []),
    `Reply in Zulip: ${url}`,
    'Do not reply to this email: this server does not accept incoming email.',
    `Manage email preferences: ${c.realmUrl}/#settings/notifications`,
  ];

  // Consecutive messages of one sender under one name, as Zulip's build_message_list collapses them.
  const blocks: { sender: string; messages: MissedMessage[] }[] = [];
  for (const m of messages) {
    const last = blocks.at(-1);
    if (last && last.sender === m.message.sender_full_name) last.messages.push(m);
    else blocks.push({ sender: m.message.sender_full_name, messages: [m] });
  }
  const quote = (text: string) => text.split('\n').map((line) => `> ${line}`).join('\n');
  const textBody = c.showContent
    ? [header, '', ...blocks.flatMap((b) => [`${b.sender}:`, ...b.messages.map((m) => quote(m.rawContent)), ''])].join('\n')
    : `This email does not include message content because you have disabled message content in email notifications (${c.realmUrl}/#settings/notifications).\n`;
  const htmlBody = c.showContent
    ? [
        `<p><a href="${escapeHtml(url)}">${escapeHtml(header)}</a></p>`,
        ...blocks.map((b) => `<div><b>${escapeHtml(b.sender)}</b>:${b.messages.map((m) => `<div>${absoluteLinks(String(m.message.content), c.realmUrl)}</div>`).join('')}</div>`),
      ].join('\n')
    : `<p>This email does not include message content because you have disabled message content in email notifications.</p>`;

  return {
    kind: 'missed_message',
    to: c.recipient.email,
    fromName: NOTIFICATIONS_FROM_NAME,
    subject,
    text: `Hi ${c.recipient.fullName},\n\n${textBody}\n${footer.join('\n')}\n`,
    html: `<p>Hi ${escapeHtml(c.recipient.fullName)},</p>\n${htmlBody}\n${footer.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}`,
  };
}
