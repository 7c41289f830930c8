import { Injectable } from '@nestjs/common';
import { type Actor, NoSuchUserError, renderMessage } from '@app/domain';
import { UserQueries } from '../users/user.queries';
import { SendMessageFactsLoader } from './send-message.facts-loader';

/**
 * POST /messages/render (zerver/views/message_send.py render_message_backend): the content
 * rendered as the caller sending it would see it rendered; nothing is stored.
 */
@Injectable()
export class RenderMessageQueries {
  constructor(
    private readonly users: UserQueries,
    private readonly facts: SendMessageFactsLoader,
  ) {}

  async render(actor: Actor, content: string): Promise<string> {
    const sender = actor.userId === null ? null : await this.users.byId(actor.realmId, actor.userId);
    if (!sender) throw new NoSuchUserError();
    return renderMessage(content, await this.facts.renderContext(sender, content)).html;
  }
}
