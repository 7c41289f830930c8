import { Inject, Injectable } from '@nestjs/common';
import {
  type AttachmentDeleted,
  type AttachmentUploaded,
  flagsList,
  type MessageContentEdited,
  type MessageDeleted,
  type MessageSent,
  messageStream,
  type MessagesMoved,
  type ScheduledMessageCreated,
  type ScheduledMessageDeleted,
  type ScheduledMessageDelivered,
  type ScheduledMessageDeliveryFailed,
  type ScheduledMessageEdited,
  unixSeconds,
} from '@app/domain';
import { ChannelQueries } from '../../channels/channel-queries';
import { MessageQueries } from '../../messages/get-messages.queries';
import type { MessageDocument } from '../../messages/message.documents';
import type { RecordedEvent } from '../../ports/event-store.port';
import type { ReadStorePort } from '../../ports/read-store.port';
import { READ_STORE, USER_MESSAGE_STORE } from '../../ports/tokens';
import type { UserMessageStorePort } from '../../ports/user-message-store.port';
import { SCHEDULED_MESSAGES, type ScheduledMessageDocument, toApiScheduledMessage } from '../../scheduled-messages/scheduled-message.documents';
import { SubscriptionQueries } from '../../subscriptions/subscription-queries';
import { AttachmentQueries } from '../../uploads/attachment-queries';
import { USERS, type UserDocument } from '../../users/user.documents';
import type { AreaClientEvents } from '../area-contributions';
import type { ClientEventDelivery, ClientEventMapper, ClientEventMapperContext, Recorded } from '../client-event-mappers';


/**
 * The events of the areas that landed with issues #5 (message edit, move, delete), #7 (scheduled
 * messages) and #9 (uploads): `update_message`, `delete_message`, `scheduled_messages`, `attachment`.
 */
@Injectable()
export class MessageLifecycleClientEventMappers implements AreaClientEvents {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
    private readonly channels: ChannelQueries,
    private readonly subscriptions: SubscriptionQueries,
    private readonly attachments: AttachmentQueries,
    private readonly messages: MessageQueries,
  ) {}

  clientEvents(): Record<string, ClientEventMapper<any>> {
    return {
      MessageContentEdited: (e: Recorded<MessageContentEdited>, c) => this.contentEdited(e, c),
      MessagesMoved: (e: Recorded<MessagesMoved>, c) => this.moved(e, c),
      MessageDeleted: (e: Recorded<MessageDeleted>, c) => this.deleted(e, c),
      ScheduledMessageCreated: async (e: Recorded<ScheduledMessageCreated>) => {
        const doc = await this.scheduled(e.data.scheduledMessageId);
        return doc ? [{ userIds: [e.data.senderId], event: { type: 'scheduled_messages', op: 'add', scheduled_messages: [toApiScheduledMessage(doc)] } }] : [];
      },
      ScheduledMessageEdited: (e: Recorded<ScheduledMessageEdited>) => this.scheduledUpdate(e.data.scheduledMessageId, e.data.senderId),
      ScheduledMessageDeliveryFailed: (e: Recorded<ScheduledMessageDeliveryFailed>) => this.scheduledUpdate(e.data.scheduledMessageId, e.data.senderId),
      ScheduledMessageDeleted: (e: Recorded<ScheduledMessageDeleted>) => [
        { userIds: [e.data.senderId], event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: e.data.scheduledMessageId } },
      ],
      // A delivered scheduled message leaves the list (try_deliver_one_scheduled_message).
      ScheduledMessageDelivered: (e: Recorded<ScheduledMessageDelivered>) => [
        { userIds: [e.data.senderId], event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: e.data.scheduledMessageId } },
      ],
      AttachmentUploaded: (e: Recorded<AttachmentUploaded>) => this.attachmentAdded(e),
      AttachmentDeleted: (e: Recorded<AttachmentDeleted>) => this.attachmentRemoved(e),
    };
  }

  private async scheduled(id: number): Promise<ScheduledMessageDocument | null> {
    return this.readStore.get<ScheduledMessageDocument>(SCHEDULED_MESSAGES, String(id));
  }

  private async scheduledUpdate(id: number, senderId: number): Promise<ClientEventDelivery[]> {
    const doc = await this.scheduled(id);
    if (!doc || doc.delivered) return [];
    return [{ userIds: [senderId], event: { type: 'scheduled_messages', op: 'update', scheduled_message: toApiScheduledMessage(doc) } }];
  }

  /**
   * Who may have rows for a message: the conversation's participants, or the channel's subscribers
   * (and, for a move, the old channel's), limited to users with a queue here; each gets the event
   * only if they have a row, with their flags for it (do_update_message's per-user `flags`).
   */
  private async rowHolders(userIds: Iterable<number>, messageId: number, c: ClientEventMapperContext): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const userId of new Set(userIds)) {
      if (!c.hasQueues(userId)) continue;
      const flags = (await this.userMessages.flagsFor(userId, [messageId])).get(messageId);
      if (flags !== undefined) out.set(userId, flags);
    }
    return out;
  }

  private async candidates(doc: MessageDocument, realmId: number, extraChannelId?: number): Promise<number[]> {
    if (doc.type === 'private') return doc.dm_user_ids ?? [];
    const ids = await this.subscriptions.subscriberIds(realmId, doc.stream_id!);
    if (extraChannelId !== undefined && extraChannelId !== doc.stream_id) ids.push(...(await this.subscriptions.subscriberIds(realmId, extraChannelId)));
    return ids;
  }

  private deliverPerUser(holders: Map<number, number>, event: Record<string, unknown>): ClientEventDelivery[] {
    const base = { type: 'update_message', ...event };
    return [{ userIds: [...holders.keys()], event: base, perUser: (userId) => ({ ...base, flags: flagsList(holders.get(userId) ?? 0) }) }];
  }

  /** do_update_message, content part. */
  private async contentEdited(e: Recorded<MessageContentEdited>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const [doc] = await this.messages.documents([d.messageId]);
    if (!doc) return [];
    const holders = await this.rowHolders(await this.candidates(doc, d.realmId), d.messageId, c);
    return this.deliverPerUser(holders, {
      user_id: d.editorId,
      edit_timestamp: unixSeconds(d.at),
      message_id: d.messageId,
      message_ids: [d.messageId],
      rendering_only: false,
      orig_content: d.prevContent,
      orig_rendered_content: d.prevRenderedContent,
      content: d.content,
      rendered_content: d.renderedContent,
      is_me_message: d.isMeMessage,
      ...(doc.type === 'stream' ? { stream_id: doc.stream_id, stream_name: doc.stream_name, subject: doc.subject, topic_links: doc.topic_links } : {}),
    });
  }

  /**
   * do_update_message, move part: `update_message` to those who keep or gain rows, and
   * `delete_message` of the moved messages to those who lose them (they lost access).
   */
  private async moved(e: Recorded<MessagesMoved>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const [doc] = await this.messages.documents([d.targetMessageId]);
    if (!doc) return [];
    const origChannel = await this.channels.byId(d.realmId, d.origStreamId);
    const holders = await this.rowHolders([...(await this.candidates(doc, d.realmId, d.origStreamId)), ...d.userIdsGainingRows], d.targetMessageId, c);
    const out = this.deliverPerUser(holders, {
      user_id: d.editorId,
      edit_timestamp: unixSeconds(d.at),
      message_id: d.targetMessageId,
      message_ids: d.messageIds,
      rendering_only: false,
      propagate_mode: d.propagateMode,
      stream_id: d.origStreamId,
      stream_name: origChannel?.name ?? '',
      orig_subject: d.origTopic,
      subject: d.topic,
      topic_links: doc.topic_links,
      ...(d.streamId !== d.origStreamId ? { new_stream_id: d.streamId } : {}),
    });
    if (d.userIdsLosingRows.length > 0) {
      out.push({
        userIds: d.userIdsLosingRows,
        event: { type: 'delete_message', message_type: 'stream', message_ids: d.messageIds, stream_id: d.origStreamId, topic: d.origTopic },
      });
    }
    return out;
  }

  /**
   * do_delete_messages (bulk_message_deletion form). The rows are gone once the projections ran,
   * so a channel message's event goes to the channel's subscribers (and the sender), and a direct
   * message's to the recipients its MessageSent named (read back from the message's own stream).
   */
  private async deleted(e: Recorded<MessageDeleted>, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const d = e.data;
    if (d.messageType === 'stream' && d.streamId !== null) {
      const subscribers = await this.subscriptions.subscriberIds(d.realmId, d.streamId);
      return [
        {
          userIds: [...new Set([...subscribers, d.senderId])].filter((id) => c.hasQueues(id)),
          event: { type: 'delete_message', message_type: 'stream', message_ids: [d.messageId], stream_id: d.streamId, topic: d.topic ?? '' },
        },
      ];
    }
    const { events } = await c.events.readStream(messageStream(d.messageId), { maxCount: 1 });
    const sent = events.find((event) => event.type === 'MessageSent') as RecordedEvent<'MessageSent', MessageSent['data']> | undefined;
    const recipients = sent ? [...new Set([...sent.data.recipientIds, d.senderId])] : [d.senderId];
    return [{ userIds: recipients, event: { type: 'delete_message', message_type: 'private', message_ids: [d.messageId] } }];
  }

  /** notify_attachment_update: the attachment and the organization's used upload space. */
  private async attachmentAdded(e: Recorded<AttachmentUploaded>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const owner = await this.readStore.get<UserDocument>(USERS, String(d.ownerId));
    if (!owner) return [];
    const { attachments, upload_space_used } = await this.attachments.list({ realmId: d.realmId, userId: d.ownerId, role: owner.role_name, isBot: owner.is_bot });
    const attachment = attachments.find((a) => a.id === d.attachmentId);
    if (!attachment) return [];
    return [{ userIds: [d.ownerId], event: { type: 'attachment', op: 'add', attachment, upload_space_used } }];
  }

  private async attachmentRemoved(e: Recorded<AttachmentDeleted>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const owner = await this.readStore.get<UserDocument>(USERS, String(d.ownerId));
    if (!owner) return [];
    const { upload_space_used } = await this.attachments.list({ realmId: d.realmId, userId: d.ownerId, role: owner.role_name, isBot: owner.is_bot });
    return [{ userIds: [d.ownerId], event: { type: 'attachment', op: 'remove', attachment: { id: d.attachmentId }, upload_space_used } }];
  }
}
