import { Inject, Injectable } from '@nestjs/common';
import { type Actor, MESSAGE_FLAG_BITS, readReceiptUserIds } from '@app/domain';
import { MUTED_USERS, type MutedUsersDocument } from '../muted-users/muted-user.documents';
import { MutedUserQueries } from '../muted-users/muted-user.queries';
import type { ReadStorePort } from '../ports/read-store.port';
import { READ_STORE, USER_MESSAGE_STORE } from '../ports/tokens';
import type { UserMessageStorePort } from '../ports/user-message-store.port';
import { RealmQueries, realmMessagingSettingsOf } from '../realms/realm.queries';
import { UserSettingsQueries } from '../settings/user-settings.queries';
import { UserQueries } from '../users/user.queries';
import { MessageAccess } from './message-access';

/**
 * GET /messages/{message_id}/read_receipts (zerver/views/read_receipts.py): access to the message
 * first ("Invalid message(s)"), then the organization's setting, then the readers. The read flag
 * is looked up for the organization's active users in one statement; settings and mutes only for
 * the users who read it.
 */
@Injectable()
export class ReadReceiptsQueries {
  constructor(
    private readonly messages: MessageAccess,
    private readonly realms: RealmQueries,
    private readonly users: UserQueries,
    private readonly settings: UserSettingsQueries,
    private readonly mutedUsers: MutedUserQueries,
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(USER_MESSAGE_STORE) private readonly userMessages: UserMessageStorePort,
  ) {}

  async readReceipts(actor: Actor, messageId: number): Promise<number[]> {
    const { doc } = await this.messages.access(actor, messageId);
    const realm = await this.realms.byId(actor.realmId);
    const enabled = realm ? realmMessagingSettingsOf(realm).enable_read_receipts : true;
    const viewerId = actor.userId!;
    if (!enabled) return readReceiptUserIds({ enabled, viewerId, senderId: doc.sender_id, readerIds: [], notSharing: new Set(), mutedByViewer: new Set(), mutingViewer: new Set() });
    const active = (await this.users.list(actor.realmId, { includeDeactivated: false })).map((u) => u.user_id).filter((id) => id !== doc.sender_id);
    const readerIds = await this.userMessages.usersWithFlags(messageId, active, MESSAGE_FLAG_BITS.read);
    const [settings, mutedByViewer, muterDocs] = await Promise.all([
      this.settings.settingsOfMany(readerIds),
      this.mutedUsers.mutedUserIds(viewerId),
      this.readStore.getMany<MutedUsersDocument>(MUTED_USERS, readerIds.map(String)),
    ]);
    const notSharing = new Set(readerIds.filter((id) => settings.get(id)?.send_read_receipts === false));
    const mutingViewer = new Set(muterDocs.filter(({ doc: d }) => d.muted_users.some((m) => m.id === viewerId)).map(({ doc: d }) => d.user_id));
    return readReceiptUserIds({ enabled, viewerId, senderId: doc.sender_id, readerIds, notSharing, mutedByViewer, mutingViewer });
  }
}
