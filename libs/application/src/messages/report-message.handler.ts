import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import { checkReportRequest, DomainError, messageReport, messageReportFailed } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import type { ClockPort } from '../ports/clock.port';
import { APP_CONFIG, CLOCK } from '../ports/tokens';
import { RealmQueries, realmMessagingSettingsOf } from '../realms/realm.queries';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { UserQueries } from '../users/user.queries';
import { MessageAccess } from './message-access';
import { NotificationBot } from './notification-bot';
import { ReportMessageCommand } from './report-message.command';

/**
 * POST /messages/{message_id}/report: the request's checks and whether the organization has a
 * moderation request channel (checkReportRequest), then access to the message (access_message:
 * "Invalid message(s)"; anyone who may read it may report it, their own messages too), then
 * Notification Bot posts the report to the moderation request channel (send_message_report) and
 * confirms it to the reporter by direct message (send_report_confirmation_dm).
 *
 * A report is not an event of its own: like Zulip, which keeps no record of reports besides the
 * message, it is the Notification Bot messages (their MessageSent events) that record it.
 */
@CommandHandler(ReportMessageCommand)
export class ReportMessageHandler implements ICommandHandler<ReportMessageCommand> {
  constructor(
    private readonly realms: RealmQueries,
    private readonly messages: MessageAccess,
    private readonly users: UserQueries,
    private readonly channels: ChannelQueries,
    private readonly notices: NotificationBot,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ context: { actor }, messageId, request }: ReportMessageCommand): Promise<Record<string, never>> {
    const realm = await this.realms.mustFindById(actor.realmId);
    const moderationRequestChannelId = realmMessagingSettingsOf(realm).moderation_request_channel_id;
    const reportType = checkReportRequest({ ...request, moderationRequestChannelId });
    const { doc } = await this.messages.access(actor, messageId);
    const participantIds = doc.type === 'private' ? (doc.dm_user_ids ?? [doc.sender_id]) : [];
    const userIds = [...new Set([actor.userId!, doc.sender_id, ...participantIds])];
    const users = new Map((await Promise.all(userIds.map((id) => this.users.mustFindById(actor.realmId, id)))).map((u) => [u.user_id, { userId: u.user_id, fullName: u.full_name }]));
    const channel = doc.type === 'stream' && doc.stream_id !== null ? await this.channels.byId(actor.realmId, doc.stream_id) : null;
    const report = messageReport({
      reportType,
      description: request.description,
      reporter: users.get(actor.userId!)!,
      moderationRequestChannelId,
      realmUrl: this.config.externalUrl,
      message: {
        id: doc.id,
        sender: users.get(doc.sender_id)!,
        timestamp: doc.timestamp,
        content: doc.content,
        ...(doc.type === 'stream'
          ? { channel: { id: doc.stream_id!, name: channel?.name ?? doc.stream_name ?? '', topic: doc.subject } }
          : { participants: [...participantIds].sort((a, b) => a - b).map((id) => users.get(id)!) }),
      },
    });
    const now = this.clock.now().toISOString();
    let posted;
    try {
      posted = await this.notices.post(actor.realmId, actor.userId!, [{ streamId: report.channelId, topic: report.topic, content: report.content }], now);
    } catch (error) {
      // internal_send_stream_message returned None (the channel was archived since, …).
      if (error instanceof DomainError) throw messageReportFailed();
      throw error;
    }
    const confirmed = await this.notices.postDirect(actor.realmId, [report.confirmation], now);
    await this.projections.waitFor(confirmed ?? posted.position);
    return {};
  }
}
