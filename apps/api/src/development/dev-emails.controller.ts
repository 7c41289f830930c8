import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { APP_CONFIG } from '@app/application';
import type { AppConfig } from '@app/config';
import { MailFolder, mailFolderPath } from '@app/infrastructure';
import { Public } from '../http/auth.decorators';
import { escapeHtml } from '../http/html';

const page = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  '<style>body{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}article{border-top:1px solid #ccc;padding:.5rem 0}pre{white-space:pre-wrap}dt{font-weight:bold}</style>' +
  `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

/** Escapes the text and turns its http(s) links into anchors (confirmation links are the point of the page). */
const linkify = (text: string) =>
  escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);

/**
 * The development server's outgoing mail, as Zulip's development server shows it at /emails
 * (zerver/views/development/email_log.py): every mail written to DATA_DIR/emails (no EMAIL_HOST),
 * newest first, with its links clickable; `/emails/clear` empties the folder. Not served outside
 * development (the mails hold confirmation links).
 */
@Controller('emails')
export class DevEmailsController {
  private readonly folder: MailFolder;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.folder = new MailFolder(mailFolderPath(config));
  }

  @Get()
  @Public()
  list(@Res() response: Response): void {
    if (!this.available(response)) return;
    const note = this.config.email.host
      ? `<p>EMAIL_HOST is set: mails go to <code>${escapeHtml(`smtp://${this.config.email.host}:${this.config.email.port}`)}</code>, not to this page.</p>`
      : `<p>No SMTP server is configured (EMAIL_HOST): mails are written to <code>${escapeHtml(this.folder.dir)}</code>. <a href="/emails/clear">Clear</a></p>`;
    const mails = this.folder.list();
    const items = mails.map(
      (m) =>
        '<article>' +
        `<h2>${escapeHtml(m.subject)}</h2><dl>` +
        `<dt>From</dt><dd>${escapeHtml(m.fromName ? `${m.fromName} <${m.from}>` : m.from)}</dd>` +
        `<dt>To</dt><dd>${escapeHtml(m.to)}</dd><dt>Date</dt><dd>${escapeHtml(m.date)}</dd></dl>` +
        `<pre>${linkify(m.text)}</pre><p><a href="/emails/raw/${encodeURIComponent(m.file)}">Message source</a></p>` +
        '</article>',
    );
    response.type('html').send(page('Emails', note + (items.length ? items.join('') : '<p>No mails yet.</p>')));
  }

  @Get('clear')
  @Public()
  clear(@Res() response: Response): void {
    if (!this.available(response)) return;
    this.folder.clear();
    response.redirect(303, '/emails');
  }

  @Get('raw/:file')
  @Public()
  raw(@Param('file') file: string, @Res() response: Response): void {
    if (!this.available(response)) return;
    const message = this.folder.raw(file);
    if (!message) {
      response.status(404).type('html').send(page('No such mail', ''));
      return;
    }
    response.type('text/plain; charset=utf-8').send(message);
  }

  private available(response: Response): boolean {
    if (this.config.env === 'development') return true;
    response.status(404).type('html').send(page('Not found', '<p>The mail log is only served by development servers.</p>'));
    return false;
  }
}
