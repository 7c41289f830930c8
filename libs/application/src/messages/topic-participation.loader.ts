import { Inject, Injectable } from '@nestjs/common';
import { participationMayChangePolicy, type TopicParticipation, VISIBILITY_POLICY } from '@app/domain';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE } from '../ports/tokens';
import { USER_SETTINGS_COLLECTION, type UserSettingsDocument } from '../settings/user-settings.documents';
import type { AccessedMessage } from './message-access';
import { topicAutomationOf } from './send-message.facts-loader';
import { UserTopicQueries } from './user-topics.queries';

/**
 * The facts of the automatic topic follow / unmute on participation (TopicParticipation), for a
 * reaction (do_add_reaction) or a submessage (do_add_submessage) on a message already accessed
 * (MessageAccess.access, which read the user's subscription: `subscribed`,
 * `channelMuted`). In Zulip's order, so that most calls read one document: nothing for a direct
 * message or a bot; then the user's automatic topic settings (one read; Zulip's defaults never
 * count participation); only when one of them is "on participation", the user's policy for the
 * message's current topic.
 */
@Injectable()
export class TopicParticipationLoader {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    private readonly userTopics: UserTopicQueries,
  ) {}

  async load({ user, doc, channel, subscribed, channelMuted }: AccessedMessage): Promise<TopicParticipation | null> {
    if (channel === null || doc.type !== 'stream' || user.is_bot) return null;
    const settings = topicAutomationOf((await this.readStore.get<UserSettingsDocument>(USER_SETTINGS_COLLECTION, String(user.user_id))) ?? undefined);
    if (!participationMayChangePolicy(settings)) return null;
    const streamId = channel.stream_id;
    const topic = doc.subject;
    const currentPolicy = subscribed ? await this.userTopics.policyOf(user.user_id, streamId, topic) : VISIBILITY_POLICY.INHERIT;
    return { streamId, topic, settings, currentPolicy, subscribed, channelMuted };
  }
}
