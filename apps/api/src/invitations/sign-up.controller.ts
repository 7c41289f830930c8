import { Body, Controller, Get, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { InvitationQueries, type InvitationDocument, type SignUpResult, SignUpWithInvitationCommand } from '@app/application';
import { ConfirmationLinkError, DomainError, MAX_NAME_LENGTH } from '@app/domain';
import { Public } from '../http/auth.decorators';
import { escapeHtml } from '../http/html';

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;line-height:1.5}label{display:block;margin-top:1rem;font-weight:600}input{font:inherit;width:100%;padding:.4rem;box-sizing:border-box}button{font:inherit;margin-top:1.5rem;padding:.5rem 1.5rem}[role=alert]{border:2px solid #b00;padding:.5rem 1rem;color:#900}';

const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>\n${body}\n</main></body></html>`;

type Form = { full_name?: string; password?: string; email?: string };

/**
 * The page an invitation's link opens (Zulip's `/join/<key>/`: accounts_home_from_multiuse_invite
 * and the registration form of an email invitation): plain HTML, a form POSTed back to the same
 * address, no JavaScript. An unknown link is a 404 page "does not exist"; a used, revoked or
 * expired one a 404 page "has expired" (render_confirmation_key_error). A refused form comes back
 * (400) with the reason announced (role="alert") and the fields kept, the password excepted.
 */
@Controller('join')
export class SignUpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly invitations: InvitationQueries,
  ) {}

  // Zulip's links end in a slash; both forms are served.
  @Get(':key')
  @Public()
  async show(@Param('key') key: string, @Res({ passthrough: true }) response: Response): Promise<string> {
    response.type('html');
    try {
      return this.form(key, await this.invitations.validByKey(key), {});
    } catch (error) {
      return this.refused(error, response);
    }
  }

  @Post(':key')
  @Public()
  async submit(@Param('key') key: string, @Body() body: Form | undefined, @Res({ passthrough: true }) response: Response): Promise<string> {
    response.type('html');
    const form: Form = { full_name: text(body?.full_name), password: text(body?.password), email: text(body?.email) };
    let invitation: InvitationDocument;
    try {
      invitation = await this.invitations.validByKey(key);
    } catch (error) {
      return this.refused(error, response);
    }
    try {
      const result = await this.commands.execute(
        new SignUpWithInvitationCommand(key, { fullName: form.full_name ?? '', password: form.password ?? '', ...(invitation.is_multiuse ? { email: form.email ?? '' } : {}) }),
      );
      response.status(200);
      return this.done(result);
    } catch (error) {
      if (!(error instanceof DomainError) || error instanceof ConfirmationLinkError) return this.refused(error, response);
      response.status(error.httpStatus);
      return this.form(key, invitation, form, error.message);
    }
  }

  private form(key: string, invitation: InvitationDocument, values: Form, error?: string): string {
    const action = `/join/${encodeURIComponent(key)}/`;
    const alert = error ? `<div role="alert" id="form-error"><p>${escapeHtml(error)}</p></div>` : '';
    const described = error ? ' aria-describedby="form-error"' : '';
    const email = invitation.is_multiuse
      ? `<label for="email">Email address</label><input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(values.email ?? '')}"${described}>`
      : `<p>You were invited as <strong>${escapeHtml(invitation.email ?? '')}</strong>.</p>`;
    return page(
      'Create your account',
      `${alert}<form method="post" action="${escapeHtml(action)}">
${email}
<label for="full_name">Full name</label><input id="full_name" name="full_name" type="text" autocomplete="name" required maxlength="${MAX_NAME_LENGTH}" value="${escapeHtml(values.full_name ?? '')}"${described}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" required${described}>
<button type="submit">Sign up</button>
</form>`,
    );
  }

  private done(result: SignUpResult): string {
    return page(
      'Your account is ready',
      `<p>Welcome to ${escapeHtml(result.realmName)}, ${escapeHtml(result.fullName)}.</p>
<p>Sign in from a Zulip app (<a href="https://zulip.com/apps/">zulip.com/apps</a>, for desktop and mobile) with:</p>
<dl><dt>Organization URL</dt><dd><code>${escapeHtml(result.realmUrl)}</code></dd><dt>Email</dt><dd><code>${escapeHtml(result.email)}</code></dd><dt>Password</dt><dd>the one you just chose</dd></dl>`,
    );
  }

  private refused(error: unknown, response: Response): string {
    if (!(error instanceof DomainError)) throw error;
    response.status(error.httpStatus);
    const title = error instanceof ConfirmationLinkError ? 'Whoops. The invitation link is not valid.' : 'The account could not be created.';
    return page(title, `<p role="alert">${escapeHtml(error.message)}</p><p>Ask whoever invited you for a new invitation.</p>`);
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
