import { DomainError } from '../shared/domain-error';
import { MAX_MESSAGE_LENGTH, MESSAGE_TRUNCATION_SUFFIX } from './content.rules';
import { silentMentionSyntax as silentMention } from './mention-syntax';
import { channelMessageNarrow } from './rendering/url-encoding';
import { truncateContent } from './text.rules';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../shared/empty-topic';

/**
 * Message reports (POST /messages/{message_id}/report, Zulip's zerver/views/message_report.py and
 * zerver/lib/message_report.py): the checks of a report and the words Notification Bot posts.
 */

/** Realm.REPORT_MESSAGE_REASONS, in Zulip's order: `server_report_message_types` (feature level 435). */
export const REPORT_MESSAGE_TYPES = [
  { key: 'spam', name: 'Spam' },
  { key: 'harassment', name: 'Harassment' },
  { key: 'inappropriate', name: 'Inappropriate content' },
  { key: 'norms', name: 'Violates community norms' },
  { key: 'other', name: 'Other reason' },
] as const;
export type ReportMessageType = (typeof REPORT_MESSAGE_TYPES)[number]['key'];
export const REPORT_MESSAGE_TYPE_KEYS: readonly ReportMessageType[] = REPORT_MESSAGE_TYPES.map((t) => t.key);

/** Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_MESSAGE_EXPLANATION_LENGTH = 1000;
/**
 * MAX_REPORT_MESSAGE_SNIPPET_LENGTH: the reported message is cut so that the description and the
 * template's words (an arbitrary 500) fit in one message.
 */
export const MAX_REPORT_MESSAGE_SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_MESSAGE_EXPLANATION_LENGTH - 500;

export class MessageReportError extends DomainError {}

/**
 * report_message_backend's checks before the message is accessed, in its order: the report type
 * (check_string_in_validator: "Invalid report_type"), the description's length, an explanation
 * for "other", then whether the organization has a moderation request channel.
 */
export function checkReportRequest(request: { reportType: string; description: string; moderationRequestChannelId: number }): ReportMessageType {
  const type = REPORT_MESSAGE_TYPE_KEYS.find((key) => key === request.reportType);
  if (!type) throw new MessageReportError('Invalid report_type');
  if ([...request.description].length > MAX_REPORT_MESSAGE_EXPLANATION_LENGTH) {
    throw new MessageReportError(`description is too long (limit: ${MAX_REPORT_MESSAGE_EXPLANATION_LENGTH} characters)`);
  }
  if (type === 'other' && request.description === '') throw new MessageReportError('An explanation is required.');
  if (request.moderationRequestChannelId < 0) throw new MessageReportError('Message reporting is not enabled in this organization.');
  return type;
}

/** send_message_report failed to post (internal_send_stream_message returned None). */
export const messageReportFailed = () => new MessageReportError('Failed to send the message report.');

type ReportUser = { userId: number; fullName: string };

/** What a report needs to know about the reported message, where it is now. */
export type ReportedMessage = {
  id: number;
  sender: ReportUser;
  /** Seconds since the epoch (date_sent). */
  timestamp: number;
  content: string;
  /** A channel message: its channel (current name) and topic. */
  channel?: { id: number; name: string; topic: string };
  /** A direct message: every participant (the sender too), by ascending id. */
  participants?: ReportUser[];
};

export type MessageReportFacts = {
  reportType: ReportMessageType;
  description: string;
  reporter: ReportUser;
  message: ReportedMessage;
  moderationRequestChannelId: number;
  /** The organization's URL (realm.url), for direct-message links. */
  realmUrl: string;
};

/** What Notification Bot posts: the report in the moderation request channel, and the reporter's confirmation. */
export type MessageReport = {
  channelId: number;
  topic: string;
  content: string;
  /** send_report_confirmation_dm: Notification Bot's direct message to the reporter. */
  confirmation: { userId: number; content: string };
};

/** zerver/lib/timestamp.py datetime_to_global_time: `<time:…>` in UTC, to the second. */
export const globalTime = (seconds: number) => `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;

/**
 * get_user_mentions_for_display: the users' silent mentions as an English list ("A", "A and B",
 * "A, B, and C"); beyond three, the first two and how many more.
 */
export function userMentionsForDisplay(users: ReportUser[]): string {
  const mentions = users.map(silentMention);
  if (mentions.length > 3) return `${mentions.slice(0, 2).join(', ')}, and ${mentions.length - 2} more`;
  if (mentions.length <= 2) return mentions.join(' and ');
  return `${mentions.slice(0, -1).join(', ')}, and ${mentions[mentions.length - 1]}`;
}

const BROKEN_LINK_CHARACTERS = /[`>*&[\]]|(\$\$)/;
const LINK_ESCAPES: Record<string, string> = { '`': '&#96;', '>': '&gt;', '*': '&#42;', '&': '&amp;', $$: '&#36;&#36;', '[': '&#91;', ']': '&#93;' };
const escapeLinkText = (text: string) => text.replace(/[`>*&[\]]|(\$\$)/g, (m) => LINK_ESCAPES[m] ?? m);

/**
 * zerver/lib/topic_link_util.py get_message_link_syntax: `#**channel>topic@id**`, or a plain
 * Markdown link when the names hold characters that syntax cannot carry.
 */
export function messageLinkSyntax(channelId: number, channelName: string, topic: string, messageId: number): string {
  if (!BROKEN_LINK_CHARACTERS.test(topic) && !BROKEN_LINK_CHARACTERS.test(channelName)) return `#**${channelName}>${topic}@${messageId}**`;
  const link = channelMessageNarrow(channelId, channelName, topic, messageId);
  const text = `#${escapeLinkText(channelName)} > ${escapeLinkText(topic === '' ? EMPTY_TOPIC_FALLBACK_NAME : topic)} @ 💬`;
  return `[${text}](${link})`;
}

/** zerver/lib/url_encoding.py pm_message_url (encode_user_ids: ids ascending, "-group" from three). */
const directMessageUrl = (realmUrl: string, participantIds: number[], messageId: number) => {
  const ids = [...participantIds].sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${ids.join(',')}${ids.length >= 3 ? '-group' : ''}/near/${messageId}`;
};


/** zerver/lib/markdown/fenced_code.py get_unused_fence: one backtick longer than any fence in the text. */
export function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1].length + 1);
  return '`'.repeat(length);
}

/**
 * send_message_report and send_report_confirmation_dm, in Zulip's words: a header naming the
 * reporter and the sender (and, for direct messages, to whom it went), the reason and
 * description quoted, and the reported message (cut to MAX_REPORT_MESSAGE_SNIPPET_LENGTH) in a
 * spoiler titled with a link to it; posted to "<sender's full name> moderation".
 */
export function messageReport(facts: MessageReportFacts): MessageReport {
  const { reporter, message, description, realmUrl } = facts;
  const reason = REPORT_MESSAGE_TYPES.find((t) => t.key === facts.reportType)!.name;
  const reporterMention = silentMention(reporter);
  const senderMention = silentMention(message.sender);
  const at = globalTime(message.timestamp);
  let header = `${reporterMention} reported a message sent by ${senderMention} at ${at}.`;
  let original: string;
  let messageUrl: string;
  if (message.channel) {
    original = `Original message at ${messageLinkSyntax(message.channel.id, message.channel.name, message.channel.topic, message.id)}`;
    messageUrl = `${realmUrl}/${channelMessageNarrow(message.channel.id, message.channel.name, message.channel.topic, message.id)}`;
  } else {
    const participants = message.participants ?? [message.sender];
    if (participants.length <= 2) {
      // is_1_to_1_message: reporting one's own direct message names its recipient (oneself, to oneself).
      if (message.sender.userId === reporter.userId) {
        const recipient = participants.find((u) => u.userId !== reporter.userId) ?? reporter;
        header = `${reporterMention} reported a message sent by ${senderMention} to ${silentMention(recipient)} at ${at}.`;
      }
    } else {
      const recipients = participants.filter((u) => u.userId !== message.sender.userId);
      header = `${reporterMention} reported a message sent by ${senderMention} to ${userMentionsForDisplay(recipients)} at ${at}.`;
    }
    messageUrl = directMessageUrl(realmUrl, participants.map((u) => u.userId), message.id);
    original = `[Original message](${messageUrl})`;
  }
  const snippet = truncateContent(message.content, MAX_REPORT_MESSAGE_SNIPPET_LENGTH, MESSAGE_TRUNCATION_SUFFIX);
  const fence = unusedFence(snippet);
  const content = `${header}\n\`\`\`quote\n**${reason}**. ${description}\n\`\`\`\n\n${fence} spoiler ${original}\n${snippet}\n${fence}`;
  return {
    channelId: facts.moderationRequestChannelId,
    topic: `${message.sender.fullName} moderation`,
    content,
    confirmation: { userId: reporter.userId, content: `You reported [a message](${messageUrl}) for ${reason.toLowerCase()}.` },
  };
}
