import { Injectable } from '@nestjs/common';
import type { NarrowCondition } from '../ports/user-message-store.port';
import type { UserDocument } from '../users/user.documents';

/** A content edit as the extensions see it (PATCH /messages/{id} with `content`). */
export type MessageContentEdit = { actorId: number; messageId: number; prevContent: string; content: string };

/**
 * An area that attaches things to messages (reactions, submessages, and whatever comes next)
 * plugs into the messages core through one of these, so that `messages/` names none of them.
 */
export interface MessageExtension {
  /** For logs and errors. */
  readonly name: string;
  /**
   * What it adds to message objects (GET /messages, GET /messages/{id}, `message` events): for
   * these messages, in one read, each message's fields (every message gets them, empty lists for
   * messages without any).
   */
  messageFields?(realmId: number, messageIds: number[]): Promise<(messageId: number) => Record<string, unknown>>;
  /**
   * The narrow terms it answers, by `<operator>:<operand>` (e.g. `has:reaction`): the store
   * condition for the viewer (negation is the caller's).
   */
  readonly narrowTerms?: Record<string, (viewer: UserDocument) => Promise<NarrowCondition>>;
  /**
   * What it adds to PATCH /messages/{id}'s answer (uploads: `detached_uploads`), given the
   * content change the edit made (null: a move only).
   */
  editAnswer?(edit: MessageContentEdit | null): Promise<Record<string, unknown>>;
}

/**
 * The message extensions of this application: each extension registers itself when Nest builds it
 * (its area's providers), before any request is served.
 */
@Injectable()
export class MessageExtensions {
  private readonly extensions: MessageExtension[] = [];

  register(extension: MessageExtension): void {
    if (this.extensions.some((e) => e.name === extension.name)) throw new Error(`Message extension ${extension.name} registered twice`);
    this.extensions.push(extension);
  }

  /** The fields every extension adds, for these messages: one function per message id (in registration order). */
  async messageFields(realmId: number, messageIds: number[]): Promise<(messageId: number) => Record<string, unknown>> {
    const each = await Promise.all(this.extensions.flatMap((e) => (e.messageFields ? [e.messageFields(realmId, messageIds)] : [])));
    return (messageId) => Object.assign({}, ...each.map((fields) => fields(messageId))) as Record<string, unknown>;
  }

  /** What the extensions add to PATCH /messages/{id}'s answer. */
  async editAnswer(edit: MessageContentEdit | null): Promise<Record<string, unknown>> {
    const parts = await Promise.all(this.extensions.map((e) => e.editAnswer?.(edit) ?? {}));
    return Object.assign({}, ...parts) as Record<string, unknown>;
  }

  /** The extension's answer to a narrow term (`has:reaction`), or undefined when no extension answers it. */
  narrowTerm(operator: string, operand: unknown): ((viewer: UserDocument) => Promise<NarrowCondition>) | undefined {
    const key = `${operator}:${String(operand)}`;
    for (const extension of this.extensions) {
      const answer = extension.narrowTerms?.[key];
      if (answer) return answer;
    }
    return undefined;
  }
}
