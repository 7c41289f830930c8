import { invalidTopicCharacter } from './messages.errors';
import { pythonStrip, unprintablePosition } from '../shared/printable-text';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../shared/empty-topic';
import { truncateContent } from './text.rules';

/** Zulip's MAX_TOPIC_NAME_LENGTH (`max_topic_length` in POST /register). */
export const MAX_TOPIC_NAME_LENGTH = 60;
/** The topic name older clients send for "no topic" (maybe_rename_no_topic_to_empty_topic). */
export const LEGACY_NO_TOPIC = '(no topic)';
/** zerver/lib/topic.py RESOLVED_TOPIC_PREFIX. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/**
 * zerver/lib/addressee.py Addressee.for_stream_*: strip, read "general chat" and "(no topic)" as
 * the empty topic, then refuse unprintable characters ("Invalid character in topic, at position N!").
 */
export function normalizeTopic(raw: string): string {
  let topic = pythonStrip(raw);
  if (topic === EMPTY_TOPIC_FALLBACK_NAME || topic === LEGACY_NO_TOPIC) topic = '';
  const position = unprintablePosition(topic);
  if (position !== null) throw invalidTopicCharacter(position);
  return topic;
}

/** zerver/lib/message.py truncate_topic: longer than 60 code points → the first 57 and "...". */
export const truncateTopic = (topic: string): string => truncateContent(topic, MAX_TOPIC_NAME_LENGTH, '...');

/** What clients that do not know the empty topic see for it (maybe_rename_empty_topic_to_general_chat). */
export const displayTopic = (topic: string, allowEmptyTopicName: boolean): string =>
  topic === '' && !allowEmptyTopicName ? EMPTY_TOPIC_FALLBACK_NAME : topic;
