import { escapeHtml } from '@app/domain';
import type { MailRequest } from '../email/mailer';

/** Zulip's FromAddress.security_email_from_name. */
export const SECURITY_FROM_NAME = 'Zulip account security';

const paragraphs = (...ps: string[]) => ps.map((p) => `<p>${p}</p>`).join('\n');

/**
 * zerver/emails/confirm_new_email (do_start_email_change_process): to the new address, with the
 * link that confirms the change. The link's key is the secret; this mail is the only place it goes.
 */
export function confirmNewEmailMail(c: { realmUrl: string; oldEmail: string; newEmail: string; activateUrl: string }): MailRequest {
  const host = new URL(c.realmUrl).host;
  const request = `We received a request to change the email address for the Zulip account on ${c.realmUrl} from ${c.oldEmail} to ${c.newEmail}. To confirm this change, please click below:`;
  const notYou = 'If you did not request this change, please contact your organization administrators immediately.';
  return {
    kind: 'confirm_new_email',
    to: c.newEmail,
    fromName: SECURITY_FROM_NAME,
    subject: `Verify your new email address for ${host}`,
    text: `Hi,\n\n${request}\n\n${c.activateUrl}\n\n${notYou}\n`,
    html: paragraphs('Hi,', escapeHtml(request), `<a href="${escapeHtml(c.activateUrl)}">Confirm email change</a>`, escapeHtml(notYou)),
  };
}

/** zerver/emails/notify_change_in_email (confirm_email_change): to the old address, once the change is made. */
export function notifyChangeInEmailMail(c: { realmName: string; oldEmail: string; newEmail: string }): MailRequest {
  const changed = `The email associated with your Zulip account was recently changed to ${c.newEmail}. If you did not request this change, please contact your organization administrators immediately.`;
  return {
    kind: 'notify_change_in_email',
    to: c.oldEmail,
    fromName: SECURITY_FROM_NAME,
    subject: `Zulip email changed for ${c.realmName}`,
    text: `Hi,\n\n${changed}\n\nBest,\nTeam Zulip\n`,
    html: paragraphs('Hi,', escapeHtml(changed), 'Best,<br>Team Zulip'),
  };
}
