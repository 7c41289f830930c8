import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import type { ReactionAdded, ReactionRemoved } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperContext, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { MessageAccess } from '../messages/message-access';
import { APP_CONFIG } from '../ports/tokens';
import { reactionTypeForClients } from '../server/version-fields';
import { UserQueries } from '../users/user.queries';

type ReactionData = ReactionAdded['data'] | ReactionRemoved['data'];

/** notify_reaction_update: one `reaction` event (op add / remove) to everyone who may see the message. */
@Injectable()
export class ReactionsClientEvents implements AreaClientEvents {
  constructor(
    private readonly access: MessageAccess,
    private readonly users: UserQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  clientEvents(): ClientEventMapperList {
    return {
      ReactionAdded: (e: Recorded<ReactionAdded>, c: ClientEventMapperContext) => this.reaction('add', e.data, c),
      ReactionRemoved: (e: Recorded<ReactionRemoved>, c: ClientEventMapperContext) => this.reaction('remove', e.data, c),
    };
  }

  private async reaction(op: 'add' | 'remove', d: ReactionData, c: ClientEventMapperContext): Promise<ClientEventDelivery[]> {
    const [user, userIds] = await Promise.all([this.users.byId(d.realmId, d.userId), this.recipients(d, c)]);
    if (userIds.length === 0) return [];
    const event = {
      type: 'reaction',
      op,
      user_id: d.userId,
      // Zulip still sends this redundant object (notify_reaction_update's user_dict).
      user: { user_id: d.userId, email: user?.email ?? '', full_name: user?.full_name ?? '' },
      message_id: d.messageId,
      emoji_name: d.emojiName,
      emoji_code: d.emojiCode,
      reaction_type: reactionTypeForClients(d.reactionType, this.config),
    };
    return [{ userIds, event }];
  }

  /** notify_reaction_update: who may see the message (MessageAccess.audience, event_recipient_ids_for_action_on_messages). */
  private async recipients(d: ReactionData, c: ClientEventMapperContext): Promise<number[]> {
    const [doc] = await this.access.documents([d.messageId]);
    return doc ? [...(await this.access.audience(doc, c)).keys()] : [];
  }
}
