import { Controller, Get, Param, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { ConfirmEmailChangeCommand } from '@app/application';
import { ConfirmationLinkError, DomainError } from '@app/domain';
import { Public } from '../http/auth.decorators';
import { escapeHtml } from '../http/html';

const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${body}</p></body></html>`;

/**
 * The link of a change of address (zerver/views/user_settings.py confirm_email_change): a web
 * page, not an API endpoint. An unknown, used, revoked or expired link is a 404 page, as Zulip's
 * render_confirmation_key_error renders it; an address taken meanwhile, changes of address disabled
 * meanwhile, or a deactivated account are refused with their reason (and the link stays usable).
 */
@Controller('accounts/confirm_new_email')
export class EmailConfirmationController {
  constructor(private readonly commands: CommandBus) {}

  // Zulip's links end in a slash (`/accounts/confirm_new_email/<key>/`); both forms are served.
  @Get(':key')
  @Public()
  async confirm(@Param('key') key: string, @Res({ passthrough: true }) response: Response): Promise<string> {
    response.type('html');
    try {
      const { oldEmail, newEmail } = await this.commands.execute(new ConfirmEmailChangeCommand(key));
      return page(
        'Email address changed',
        `The email address for your account was changed from <a href="mailto:${escapeHtml(oldEmail)}">${escapeHtml(oldEmail)}</a> to <a href="mailto:${escapeHtml(newEmail)}">${escapeHtml(newEmail)}</a>.`,
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      response.status(error.httpStatus);
      const title = error instanceof ConfirmationLinkError ? 'Whoops. The confirmation link is not valid.' : 'The email address could not be changed.';
      return page(title, escapeHtml(error.message));
    }
  }
}
