import { Injectable } from '@nestjs/common';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Renders a channel description to the HTML of `rendered_description` when it is written (Zulip's
 * render_stream_description stores the HTML with the text). The messaging core's Markdown renderer
 * replaces this by binding its own class to this token in ApplicationModule; until then the text
 * is escaped and kept as one paragraph, which is safe and what plain descriptions render to.
 */
export abstract class ChannelDescriptionRenderer {
  abstract render(description: string, context: { realmId: number; actorId: number | null }): Promise<string>;
}

@Injectable()
export class PlainTextChannelDescriptionRenderer extends ChannelDescriptionRenderer {
  async render(description: string): Promise<string> {
    if (description.trim() === '') return '';
    return `<p>${description.trim().replace(/[&<>"']/g, (c) => ESCAPES[c])}</p>`;
  }
}
