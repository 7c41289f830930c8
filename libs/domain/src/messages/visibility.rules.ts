import { VISIBILITY_POLICY, type VisibilityPolicy } from './messages.events';

/** UserProfile.AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_*. */
export const AUTOMATIC_POLICY = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;
export type AutomaticPolicy = (typeof AUTOMATIC_POLICY)[keyof typeof AUTOMATIC_POLICY];

/** A user's automatic topic settings (their personal settings, Zulip's defaults where unchanged). */
export type TopicAutomationSettings = {
  followTopics: AutomaticPolicy;
  unmuteTopicsInMutedChannels: AutomaticPolicy;
  followTopicsWhereMentioned: boolean;
};
export const DEFAULT_TOPIC_AUTOMATION: TopicAutomationSettings = {
  followTopics: AUTOMATIC_POLICY.ON_INITIATION,
  unmuteTopicsInMutedChannels: AUTOMATIC_POLICY.ON_SEND,
  followTopicsWhereMentioned: true,
};

const { INHERIT, UNMUTED, FOLLOWED } = VISIBILITY_POLICY;

/**
 * zerver/lib/message.py visibility_policy_for_send_message: the policy sending a message gives the
 * sender for its topic, or null when it would not make the topic more visible. `initiates`: no
 * earlier message of the topic is visible to the sender.
 */
export function visibilityPolicyForSend(
  settings: TopicAutomationSettings,
  current: VisibilityPolicy,
  channelMuted: boolean,
  initiates: boolean,
): VisibilityPolicy | null {
  if (settings.followTopics === AUTOMATIC_POLICY.NEVER && settings.unmuteTopicsInMutedChannels === AUTOMATIC_POLICY.NEVER) return null;
  if (current === FOLLOWED) return null;
  const onSendOrParticipation = (p: AutomaticPolicy) => p === AUTOMATIC_POLICY.ON_SEND || p === AUTOMATIC_POLICY.ON_PARTICIPATION;
  if (onSendOrParticipation(settings.followTopics)) return FOLLOWED;
  let policy: VisibilityPolicy | null = channelMuted && onSendOrParticipation(settings.unmuteTopicsInMutedChannels) ? UNMUTED : null;
  if (current !== INHERIT) return policy !== null && current === policy ? null : policy;
  if (settings.followTopics === AUTOMATIC_POLICY.ON_INITIATION && initiates) return FOLLOWED;
  if (channelMuted && settings.unmuteTopicsInMutedChannels === AUTOMATIC_POLICY.ON_INITIATION && initiates) policy = UNMUTED;
  return policy;
}

/**
 * Whether visibilityPolicyForSend answers differently for a sender who initiates the topic and
 * one who does not, given the rest. When it does not (the sender already follows the topic, or
 * settings that ignore initiation), a send need not look up whether the topic has earlier
 * messages the sender can see (issue #23: a read per send otherwise).
 */
export function sendPolicyDependsOnInitiation(settings: TopicAutomationSettings, current: VisibilityPolicy, channelMuted: boolean): boolean {
  return visibilityPolicyForSend(settings, current, channelMuted, true) !== visibilityPolicyForSend(settings, current, channelMuted, false);
}

/**
 * zerver/lib/message.py extract_unread_data_from_um_rows is_row_muted: whether a channel
 * message is hidden by muting. A muted channel hides its topics unless they are unmuted or
 * followed; in other channels only muted topics are hidden.
 */
export function isMutedByVisibility(policy: VisibilityPolicy, channelMuted: boolean): boolean {
  if (channelMuted) return policy !== UNMUTED && policy !== FOLLOWED;
  return policy === VISIBILITY_POLICY.MUTED;
}
