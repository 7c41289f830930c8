import { escapeHtml } from '@app/domain';
import type { MailRequest } from '../email/mailer';

/** The link of an invitation or a multiuse invitation (Zulip's confirmation_url_for: `/join/<key>/`). */
export const joinUrl = (externalUrl: string, key: string): string => `${externalUrl}/join/${key}/`;

/**
 * zerver/emails/invitation (do_send_user_invite_email): to the invited address, with the link to
 * the sign-up page. The link's key is the secret; this mail is the only place it goes.
 */
export function invitationMail(c: { to: string; referrerName: string; referrerEmail: string; realmName: string; realmUrl: string; activateUrl: string; expiresAt: string | null }): MailRequest {
  const invited = `${c.referrerName} (${c.referrerEmail}) has invited you to join Zulip, the team chat of ${c.realmName} at ${c.realmUrl}.`;
  const click = 'Click the link below to create your account:';
  const expiry = c.expiresAt === null ? 'This invitation does not expire.' : `This invitation expires on ${new Date(c.expiresAt).toUTCString()}.`;
  return {
    kind: 'invitation',
    to: c.to,
    fromName: `${c.referrerName} (via Zulip)`,
    subject: `${c.referrerName} invited you to join ${c.realmName}`,
    text: `Hi,\n\n${invited}\n\n${click}\n\n${c.activateUrl}\n\n${expiry}\n`,
    html: [`<p>Hi,</p>`, `<p>${escapeHtml(invited)}</p>`, `<p><a href="${escapeHtml(c.activateUrl)}">Join ${escapeHtml(c.realmName)}</a></p>`, `<p>${escapeHtml(expiry)}</p>`].join('\n'),
  };
}
