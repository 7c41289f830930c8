import { Injectable } from '@nestjs/common';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperList } from '../events/client-event-registry';
import type { RecordedEvent } from '../ports/event-store.port';
import { UserQueries } from '../users/user.queries';

type InvitationsChanged = RecordedEvent<string, { realmId: number; actorId: number | null; referrerId?: number | null }>;

/**
 * notify_invites_changed: `invites_changed` (no payload: clients fetch GET /invites again) to the
 * organization's administrators and to whoever made the invitation. Resending changes nothing a
 * list shows, and sends nothing (as Zulip).
 */
@Injectable()
export class InvitationsClientEvents implements AreaClientEvents {
  constructor(private readonly users: UserQueries) {}

  clientEvents(): ClientEventMapperList {
    const changed = (e: InvitationsChanged) => this.changed(e.data.realmId, e.data.referrerId === undefined ? e.data.actorId : e.data.referrerId);
    return {
      InvitationCreated: changed,
      InvitationRevoked: changed,
      MultiuseInvitationCreated: changed,
      MultiuseInvitationRevoked: changed,
      InvitationAccepted: changed,
    };
  }

  private async changed(realmId: number, referrerId: number | null): Promise<ClientEventDelivery[]> {
    const admins = (await this.users.list(realmId)).filter((u) => u.is_active && u.is_admin).map((u) => u.user_id);
    const userIds = [...new Set(referrerId === null ? admins : [...admins, referrerId])];
    return [{ userIds, event: { type: 'invites_changed' } }];
  }
}
