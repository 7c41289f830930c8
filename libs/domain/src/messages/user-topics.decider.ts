import { DomainError } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import { type UserTopicVisibilityPolicyChanged, VISIBILITY_POLICY, type VisibilityPolicy } from './messages.events';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../shared/empty-topic';
import { MAX_TOPIC_NAME_LENGTH } from './topic.rules';

/**
 * Visibility policies a user sets themselves (POST /user_topics) are appended to
 * `user_topics-<userId>`.
 *
 * Why this boundary: the policy of a topic also changes when the user sends to it (the
 * automatic policies, recorded with the message on `message-<id>`), so no single stream holds
 * the current value. The handler reads it from the user_topics read model as a fact of the
 * command; the decider compares, and the stream carries no state of its own (appended with
 * expectedRevision `any`, like `message_flags-<userId>`). Two concurrent changes of one topic are
 * ordered by the log, and the projection keeps the later one, which is what Zulip's last write does.
 */
export const userTopicsStream = (userId: number) => `user_topics-${userId}`;

export type SetUserTopicVisibilityPolicy = {
  type: 'SetUserTopicVisibilityPolicy';
  data: {
    realmId: number;
    userId: number;
    streamId: number;
    /** As sent; `general chat` (the empty topic's display name) means the empty topic. */
    topic: string;
    /** As sent (checked here). */
    visibilityPolicy: number;
    /** The user's current policy for the topic (read model; INHERIT when there is no row). */
    currentPolicy: VisibilityPolicy;
    at: string;
  };
};

const POLICIES: readonly number[] = Object.values(VISIBILITY_POLICY);

/**
 * zerver/views/user_topics.py update_user_topic's parameter checks, in its order: the topic at
 * most 60 characters ("topic is too long (limit: 60 characters)"), the policy one of
 * UserTopic.VisibilityPolicy ("Invalid visibility_policy"). Returns the topic as stored
 * (maybe_rename_general_chat_to_empty_topic) and the policy.
 */
export function checkUserTopicChange(topic: string, visibilityPolicy: number): { topic: string; policy: VisibilityPolicy } {
  if ([...topic].length > MAX_TOPIC_NAME_LENGTH) throw new DomainError(`topic is too long (limit: ${MAX_TOPIC_NAME_LENGTH} characters)`);
  if (!POLICIES.includes(visibilityPolicy)) throw new DomainError('Invalid visibility_policy');
  return { topic: topic === EMPTY_TOPIC_FALLBACK_NAME ? '' : topic, policy: visibilityPolicy as VisibilityPolicy };
}

export type UserTopicsState = Record<string, never>;

/**
 * do_set_user_topic_visibility_policy: records the new policy, or nothing when it is already the
 * user's policy (setting the current value, or removing a policy that does not exist, is not an
 * error in Zulip either).
 */
export const userTopicsDecider: Decider<SetUserTopicVisibilityPolicy, UserTopicVisibilityPolicyChanged, UserTopicsState> = {
  snapshot: { name: 'user-topics', version: 1 },
  decide: (command) => {
    const { realmId, userId, streamId, currentPolicy, at } = command.data;
    const { topic, policy } = checkUserTopicChange(command.data.topic, command.data.visibilityPolicy);
    if (policy === currentPolicy) return [];
    return [{ type: 'UserTopicVisibilityPolicyChanged', data: { realmId, userId, streamId, topic, oldPolicy: currentPolicy, newPolicy: policy, messageId: null, at } }];
  },
  evolve: (state) => state,
  initialState: () => ({}),
};
