/**
 * Message.EMPTY_TOPIC_FALLBACK_NAME, which POST /register reports as `realm_empty_topic_display_name`:
 * how the empty topic reads, for messages (topic.rules.ts) and for channels (the topics policy).
 */
export const EMPTY_TOPIC_FALLBACK_NAME = 'general chat';
