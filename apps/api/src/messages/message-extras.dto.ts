import { StringParam } from '../http/params/param.decorators';

/** POST /messages/render (render_message_backend): `content`, taken literally. */
export class RenderMessageDto {
  @StringParam({ description: 'Markdown to render as a message from the caller would be rendered.' })
  content!: string;
}
