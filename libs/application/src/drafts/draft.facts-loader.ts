import { Injectable } from '@nestjs/common';
import { DomainError, draftRecipientIds, type Actor, type DraftInput, type DraftRecipientFacts } from '@app/domain';
import { ChannelQueries } from '../channels/channel.queries';
import { UserQueries } from '../users/user.queries';

/**
 * The facts the drafts decider needs from other read models: which named channels the user may
 * reach (Zulip's access_stream_by_id: existing, unarchived, content access) and which named user
 * ids are accounts of the organization, with their email and whether they are active.
 */
@Injectable()
export class DraftFactsLoader {
  constructor(
    private readonly channels: ChannelQueries,
    private readonly users: UserQueries,
  ) {}

  async load(actor: Actor, drafts: DraftInput[]): Promise<DraftRecipientFacts> {
    const { channelIds, userIds } = draftRecipientIds(drafts);
    const accessible = await Promise.all(channelIds.map((id) => this.canReach(actor, id)));
    const accounts = await Promise.all(userIds.map((id) => this.users.byId(actor.realmId, id)));
    return {
      accessibleChannelIds: channelIds.filter((_, i) => accessible[i]),
      users: accounts.flatMap((u) => (u ? [{ userId: u.user_id, email: u.email, isActive: u.is_active }] : [])),
    };
  }

  private async canReach(actor: Actor, channelId: number): Promise<boolean> {
    try {
      await this.channels.accessById(actor, channelId);
      return true;
    } catch (error) {
      if (error instanceof DomainError) return false;
      throw error;
    }
  }
}
