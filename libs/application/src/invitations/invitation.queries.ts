import { Inject, Injectable } from '@nestjs/common';
import { type Actor, ConfirmationLinkError, isAdministrator } from '@app/domain';
import { confirmationKeyDigest } from '../shared/confirmation-keys';
import type { AppConfig } from '@app/config';
import type { ClockPort } from '../ports/clock.port';
import type { ReadStorePort } from '../ports/read-store.port';
import { APP_CONFIG, CLOCK, READ_STORE } from '../ports/tokens';
import { CredentialVault } from '../shared/credential-vault';
import { joinUrl } from './invitation.mails';
import { formatInvitation, type InvitationDocument, INVITATIONS, isInvitationValid } from './invitation.documents';

/** Reads of the invitations' read model. */
@Injectable()
export class InvitationQueries {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStorePort,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly vault: CredentialVault,
  ) {}

  /**
   * do_get_invites_controlled_by_user: the valid invitations (pending, not expired) an administrator
   * may manage (all of the organization's) or a member made, oldest first. A multiuse link is shown
   * again (`link_url`) from its key in the credential store.
   */
  async controlledBy(actor: Actor): Promise<Record<string, unknown>[]> {
    const docs = await this.readStore.find<InvitationDocument>(INVITATIONS, { where: { realm_id: actor.realmId } });
    const now = this.clock.now().getTime();
    const controlled = docs.filter((d) => isInvitationValid(d, now) && (isAdministrator(actor) || d.invited_by_user_id === actor.userId)).sort((a, b) => a.id - b.id);
    return Promise.all(
      controlled.map(async (doc) => {
        if (!doc.is_multiuse) return formatInvitation(doc, null);
        const key = await this.vault.invitationKey(doc.realm_id, doc.id);
        return formatInvitation(doc, key === null ? null : joinUrl(this.config.externalUrl, key));
      }),
    );
  }

  async byId(realmId: number, id: number): Promise<InvitationDocument | null> {
    const doc = await this.readStore.get<InvitationDocument>(INVITATIONS, String(id));
    return doc && doc.realm_id === realmId ? doc : null;
  }

  /**
   * The invitation of a link that still works (confirmation/models.py get_object_from_key): an
   * unknown key "does not exist"; a used, revoked or expired link "has expired".
   */
  async validByKey(key: string): Promise<InvitationDocument> {
    const invitation = await this.byKeyDigest(confirmationKeyDigest(key));
    if (!invitation) throw ConfirmationLinkError.doesNotExist();
    if (!isInvitationValid(invitation, this.clock.now().getTime())) throw ConfirmationLinkError.expired();
    return invitation;
  }

  /** The invitation whose link's key has this digest, whatever its state. */
  async byKeyDigest(keyDigest: string): Promise<InvitationDocument | null> {
    const [doc] = await this.readStore.find<InvitationDocument>(INVITATIONS, { where: { key_digest: keyDigest }, limit: 1 });
    return doc ?? null;
  }
}
