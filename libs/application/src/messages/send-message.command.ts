import { Command } from '@nestjs/cqrs';
import type { MessageTypeParam } from '@app/domain';
import type { CommandContext } from '../shared/command-context';

export type SendMessageResult = { id: number; automatic_new_visibility_policy?: number };

/** What a send asks for, as POST /messages takes it (and as notices and scheduled deliveries build it). */
export type SendRequest = {
  type: MessageTypeParam;
  to?: string;
  topic?: string;
  content: string;
  /** As sent; absent: Zulip's client-name heuristic decides (defaultReadBySender). */
  readBySender?: boolean;
  localId?: string;
  queueId?: string;
  /** The calling client's name (Client.name). */
  client: string;
  /** POST /messages `widget_content`: a widget given outright (JSON; Zulip's `zform`). */
  widgetContent?: string;
};

/** POST /messages (zerver/views/message_send.py send_message_backend). */
export class SendMessageCommand extends Command<SendMessageResult> {
  constructor(
    readonly context: CommandContext,
    readonly request: SendRequest,
  ) {
    super();
  }
}

/**
 * Client.default_read_by_sender: messages sent from Zulip's own apps (and anything calling itself
 * a desktop app) start read for their sender; API integrations' messages do not.
 */
export function defaultReadBySender(client: string): boolean {
  const name = client.toLowerCase();
  return (
    ['zulipandroid', 'zulipios', 'zulipdesktop', 'zulipmobile', 'zulipelectron', 'zulipterminal', 'snipe', 'website', 'ios', 'android'].includes(name) ||
    name.includes('desktop app')
  );
}
