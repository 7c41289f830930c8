import { Injectable } from '@nestjs/common';
import type { Actor, AttachmentDeleted, AttachmentUploaded } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toUser } from '../events/deliveries';
import { UserQueries } from '../users/user.queries';
import { AttachmentQueries } from './attachment.queries';

/** notify_attachment_update: `attachment` events with the organization's used upload space, to the owner. */
@Injectable()
export class UploadsClientEvents implements AreaClientEvents {
  constructor(
    private readonly users: UserQueries,
    private readonly attachments: AttachmentQueries,
  ) {}

  clientEvents(): ClientEventMapperList {
    return {
      AttachmentUploaded: (e: Recorded<AttachmentUploaded>) => this.added(e),
      AttachmentDeleted: (e: Recorded<AttachmentDeleted>) => this.removed(e),
    };
  }

  private async added(e: Recorded<AttachmentUploaded>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const owner = await this.ownerOf(d.realmId, d.ownerId);
    if (!owner) return [];
    const { attachments, upload_space_used } = await this.attachments.list(owner);
    const attachment = attachments.find((a) => a.id === d.attachmentId);
    if (!attachment) return [];
    return toUser(d.ownerId, { type: 'attachment', op: 'add', attachment, upload_space_used });
  }

  private async removed(e: Recorded<AttachmentDeleted>): Promise<ClientEventDelivery[]> {
    const d = e.data;
    const owner = await this.ownerOf(d.realmId, d.ownerId);
    if (!owner) return [];
    const { upload_space_used } = await this.attachments.list(owner);
    return toUser(d.ownerId, { type: 'attachment', op: 'remove', attachment: { id: d.attachmentId }, upload_space_used });
  }

  private async ownerOf(realmId: number, userId: number): Promise<Actor | null> {
    const owner = await this.users.byId(realmId, userId);
    return owner ? { realmId, userId, role: owner.role_name, isBot: owner.is_bot } : null;
  }
}
