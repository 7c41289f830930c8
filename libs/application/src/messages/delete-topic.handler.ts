import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EMPTY_TOPIC_FALLBACK_NAME, messageDecider, messageStream } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { GlobalPosition } from '../ports/event-store.port';
import type { ClockPort } from '../ports/clock.port';
import { CLOCK, USER_MESSAGE_STORE } from '../ports/tokens';
import type { MessageQuery, UserMessageStorePort } from '../ports/user-message-store.port';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { DeleteTopicCommand } from './edit-message.command';
import { EditMessageFactsLoader } from './edit-message.facts-loader';
import { canReadChannelHistory, MessageAccess } from './message-access';

/** How long one request deletes before answering `complete: false` (Zulip stops after 50 s). */
const TIME_BUDGET_MS = 50_000;
const BATCH = 1000;

/**
 * POST /streams/{stream_id}/delete_topic (zerver/views/streams.py delete_in_topic): an
 * administrator (checked by the route) who can access the channel deletes every message of the
 * topic they can read, newest first. Each message is its own stream (`message-<id>`), so each
 * deletion is one `MessageDeleted` appended there, decided by the same decider as
 * DELETE /messages/{id} with `topicDeletion` set (no per-message permission check, as in
 * Zulip). Like Zulip, a topic too large for one request answers `complete: false` after the time
 * budget, with the deletions so far kept, and the client repeats the request.
 */
@CommandHandler(DeleteTopicCommand)
export class DeleteTopicHandler implements ICommandHandler<DeleteTopicCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    private readonly channels: ChannelQueries,
    private readonly access: MessageAccess,
    private readonly facts: EditMessageFactsLoader,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, streamId, topicName }: DeleteTopicCommand): Promise<{ complete: boolean }> {
    const { channel, isSubscribed } = await this.channels.accessById(actor, streamId);
    // maybe_rename_general_chat_to_empty_topic; messages_for_topic compares case-insensitively.
    const topic = topicName === EMPTY_TOPIC_FALLBACK_NAME ? '' : topicName;
    // bulk_access_stream_messages_query: all of a shared history, else only the messages the user received.
    const scope = canReadChannelHistory(actor.role, channel, isSubscribed) ? 'history' : 'user';
    const query: MessageQuery = {
      realmId: actor.realmId, userId: actor.userId!, scope, terms: [{ kind: 'stream', streamId, negated: false }, { kind: 'topic', topic, negated: false }],
    };
    const started = performance.now();
    let last: GlobalPosition | undefined;
    let complete = true;
    try {
      for (let fromId = Number.MAX_SAFE_INTEGER; ; ) {
        const batch = await this.userMessages.findMessages(query, { direction: 'older', fromId, limit: BATCH });
        if (batch.length === 0) break;
        for (const { id } of batch) {
          if (performance.now() - started > TIME_BUDGET_MS) {
            complete = false;
            return { complete };
          }
          const accessed = await this.access.access(actor, id);
          const data = { ...(await this.facts.forDelete(accessed, this.clock.now().toISOString())), topicDeletion: true };
          const { position } = await this.runner.run(messageDecider, messageStream(id), { type: 'DeleteMessage', data }, { actorId: actor.userId });
          if (position !== undefined) last = position;
        }
        fromId = batch[batch.length - 1].id - 1;
      }
      return { complete };
    } finally {
      if (last !== undefined) await this.projections.waitFor(last);
    }
  }
}
