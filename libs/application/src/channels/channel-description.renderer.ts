/**
 * Renders a channel description to the HTML of `rendered_description` when it is written (Zulip's
 * render_stream_description stores the HTML with the text). The messaging core binds its Markdown
 * renderer to this token in its descriptor (messages.area.ts).
 */
export abstract class ChannelDescriptionRenderer {
  abstract render(description: string, context: { realmId: number; actorId: number | null }): Promise<string>;
}
