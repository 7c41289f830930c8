import { type UserTopicVisibilityPolicyChanged, VISIBILITY_POLICY, type VisibilityPolicy } from './messages.events';

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
 * What an action asks for under the user's settings, when `counts` says which setting values it
 * answers to (visibility_policy_for_participation, visibility_policy_for_send): FOLLOWED when the
 * follow setting counts it; else UNMUTED in a muted channel when the unmute setting counts it.
 */
function policyOn(settings: TopicAutomationSettings, channelMuted: boolean, counts: (p: AutomaticPolicy) => boolean): VisibilityPolicy | null {
  if (counts(settings.followTopics)) return FOLLOWED;
  return channelMuted && counts(settings.unmuteTopicsInMutedChannels) ? UNMUTED : null;
}

/**
 * should_change_visibility_policy: the automatic policies only ever raise a topic's visibility. A
 * new policy is set unless it is the current one or the topic is already FOLLOWED (a followed topic
 * is never brought down to UNMUTED); a MUTED topic is raised to UNMUTED or FOLLOWED.
 */
function raisesVisibility(policy: VisibilityPolicy, current: VisibilityPolicy): boolean {
  return policy !== current && current !== FOLLOWED;
}

const onParticipation = (p: AutomaticPolicy) => p === AUTOMATIC_POLICY.ON_PARTICIPATION;

/**
 * Whether taking part in a topic without sending (a reaction, a poll vote or to-do change) can
 * change anything under these settings: one of them is "on participation" (1), as do_add_reaction
 * and do_add_submessage check before looking anything else up.
 */
export function participationMayChangePolicy(settings: TopicAutomationSettings): boolean {
  return onParticipation(settings.followTopics) || onParticipation(settings.unmuteTopicsInMutedChannels);
}

/**
 * zerver/lib/message.py visibility_policy_for_participation with should_change_visibility_policy:
 * the policy a reaction or a submessage (poll vote, to-do change) gives its author for the
 * message's topic, or null when it would not make the topic more visible. Only the "on
 * participation" value counts here ("on send" and "on initiation" need a message sent).
 */
export function visibilityPolicyForParticipation(settings: TopicAutomationSettings, current: VisibilityPolicy, channelMuted: boolean): VisibilityPolicy | null {
  const policy = policyOn(settings, channelMuted, onParticipation);
  return policy !== null && raisesVisibility(policy, current) ? policy : null;
}

/**
 * What do_add_reaction and do_add_submessage decide a topic policy on, read by the handler
 * (TopicParticipationLoader). Absent (null) where Zulip looks nothing up: a direct message
 * (set_visibility_policy_possible), a bot, or settings where participation changes nothing
 * (participationMayChangePolicy). `subscribed`: an active subscription (access_stream_by_id's
 * `sub`; without one nothing changes); `channelMuted`: that subscription's `is_muted`.
 */
export type TopicParticipation = {
  streamId: number;
  topic: string;
  settings: TopicAutomationSettings;
  currentPolicy: VisibilityPolicy;
  subscribed: boolean;
  channelMuted: boolean;
};

/**
 * The automatic policy change taking part in a topic makes for `userId` (none or one
 * `UserTopicVisibilityPolicyChanged`, which reaches the user as the `user_topic` event a
 * POST /user_topics sends). `messageId`: the message reacted to or voted on.
 */
export function participationPolicyChanges(
  participation: TopicParticipation | null,
  who: { realmId: number; userId: number; messageId: number; at: string },
): UserTopicVisibilityPolicyChanged[] {
  if (participation === null || !participation.subscribed) return [];
  const { streamId, topic, settings, currentPolicy, channelMuted } = participation;
  const newPolicy = visibilityPolicyForParticipation(settings, currentPolicy, channelMuted);
  if (newPolicy === null) return [];
  const { realmId, userId, messageId, at } = who;
  return [{ type: 'UserTopicVisibilityPolicyChanged', data: { realmId, userId, streamId, topic, oldPolicy: currentPolicy, newPolicy, messageId, at } }];
}

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
  // Sending a message is participation too (visibility_policy_for_participation), and FOLLOWED
  // from either wins over UNMUTED from the other.
  const onSendOrParticipation = (p: AutomaticPolicy) => p === AUTOMATIC_POLICY.ON_SEND || p === AUTOMATIC_POLICY.ON_PARTICIPATION;
  let policy = policyOn(settings, channelMuted, onSendOrParticipation);
  if (policy === FOLLOWED) return policy;
  if (current !== INHERIT) return policy !== null && raisesVisibility(policy, current) ? policy : null;
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
