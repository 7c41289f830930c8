import { DomainError } from '@app/domain';

/** A message event's message and the recipient's flags, as the predicate reads them. */
export type NarrowPredicate = (message: Record<string, unknown>, flags: string[]) => boolean;

const CHANNEL_OPERATORS = ['channel', 'stream'];
const SUPPORTED_OPERATORS = [...CHANNEL_OPERATORS, 'topic', 'exact-topic', 'sender', 'is'];
const RESOLVED_TOPIC_PREFIX = '✔ ';

/**
 * zerver/lib/narrow_predicate.py: the `narrow` of POST /register, applied to message events.
 * check_narrow_for_events refuses other operators ("Operator x not supported.") and `is:followed`
 * ("Operand followed not supported."); unknown `is` operands match everything, as in Zulip.
 */
export function buildNarrowPredicate(narrow: [string, string][]): NarrowPredicate {
  for (const [operator, operand] of narrow) {
    if (!SUPPORTED_OPERATORS.includes(operator)) throw new DomainError(`Operator ${operator} not supported.`);
    if (operator === 'is' && operand === 'followed') throw new DomainError(`Operand ${operand} not supported.`);
  }
  return (message, flags) => {
    const isStream = message.type === 'stream';
    const topic = String(message.subject ?? message.topic ?? '');
    return narrow.every(([operator, operand]) => {
      if (CHANNEL_OPERATORS.includes(operator)) return isStream && operand.toLowerCase() === String(message.display_recipient).toLowerCase();
      if (operator === 'topic') return isStream && (operand.toLowerCase() === topic.toLowerCase() || topic.toLowerCase().split(/\s+/).includes(operand.toLowerCase()));
      if (operator === 'exact-topic') return isStream && operand === topic;
      if (operator === 'sender') return operand.toLowerCase() === String(message.sender_email).toLowerCase();
      if (operand === 'dm' || operand === 'private') return message.type === 'private';
      if (operand === 'starred') return flags.includes('starred');
      if (operand === 'unread') return !flags.includes('read');
      if (operand === 'alerted' || operand === 'mentioned') return flags.includes('mentioned');
      if (operand === 'resolved') return isStream && topic.startsWith(RESOLVED_TOPIC_PREFIX);
      return true;
    });
  };
}
