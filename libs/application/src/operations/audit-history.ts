import { Inject, Injectable } from '@nestjs/common';
import { type Actor, DomainError } from '@app/domain';
import type { EventStorePort, RecordedEvent } from '../ports/event-store.port';
import { EVENT_STORE } from '../ports/tokens';
import { MessageAccess } from '../messages/message-access';
import { realmAllowsEditHistory } from '../realms/realms.register';
import { UserQueries } from '../users/user.queries';
import { canSeeDeliveryEmail } from '../users/user-format';
import { type CurrentMessage, type EventReadability, HISTORY_RULES, redactEvent } from './history-visibility';
import { type HistoryEntry, type HistoryTarget, StreamHistory, toHistoryEntry } from './stream-history';

/** What a message's events show a reader: nothing (not readable, or deleted), or the message now. */
type MessageView = { readable: false } | { readable: true; current: CurrentMessage };

/**
 * The audit history as a reader may see it (docs/security.md): GET /svc/history and the operator
 * console read it as the signed-in administrator, the CLI as the operator. Every event is listed;
 * what the reader may not read (HISTORY_RULES) is `[hidden]`, secrets always.
 *
 * - An administrator (owners included) reads organization facts, their own data, and the values
 *   of messages they may read now (MessageAccess.access, the rule of GET /messages/{id});
 *   a message's earlier versions only where the organization allows edit history.
 * - The operator (`operatorActor`, the CLI with the data directory) reads every value but secrets.
 * - Nobody reads a deleted message's content, topic, reactions or submessages here.
 */
@Injectable()
export class AuditHistory {
  private readonly log: StreamHistory;

  constructor(
    @Inject(EVENT_STORE) events: EventStorePort,
    private readonly messages: MessageAccess,
    private readonly users: UserQueries,
  ) {
    this.log = new StreamHistory(events);
  }

  async read(viewer: Actor, target: HistoryTarget): Promise<HistoryEntry[]> {
    const events = await this.log.events(target);
    const operator = viewer.role === 'operator';
    if (!operator) await this.refuseOtherRealms(viewer, events);
    const views = await this.messageViews(viewer, events);
    const addressReaders = await this.addressReadability(viewer, events);
    const editHistory = operator || realmAllowsEditHistory();
    return events.map((event) => {
      const data = event.data as Record<string, unknown>;
      const { data: shown, hidden } = redactEvent(event.type, data, this.readability(viewer, event.type, data, views, editHistory, addressReaders));
      return { ...toHistoryEntry({ ...event, data: shown }, event), hidden };
    });
  }

  private readability(
    viewer: Actor, type: string, data: Record<string, unknown>, views: Map<number, MessageView>, editHistory: boolean, addressReaders: Map<number, boolean>,
  ): EventReadability {
    const rule = HISTORY_RULES[type];
    if (!rule) return { values: 'open' };
    switch (rule.read) {
      case 'administrators':
        if (!rule.addresses || addressReaders.get(data[rule.addresses.user] as number) === true) return { values: 'all' };
        return { values: 'all', hidden: rule.addresses.fields };
      case 'owner':
        return viewer.role === 'operator' || (viewer.userId !== null && data[rule.owner] === viewer.userId) ? { values: 'all' } : { values: 'open' };
      case 'message': {
        const view = views.get(data[rule.message] as number);
        if (!view?.readable) return { values: 'open' };
        return editHistory ? { values: 'all' } : { values: 'current', current: view.current };
      }
    }
  }

  /**
   * Whether the reader may read the real address of each account the events name
   * (email_address_visibility, as delivery_email in GET /users: canSeeDeliveryEmail).
   */
  private async addressReadability(viewer: Actor, events: RecordedEvent[]): Promise<Map<number, boolean>> {
    const readable = new Map<number, boolean>();
    for (const event of events) {
      const rule = HISTORY_RULES[event.type];
      if (rule?.read !== 'administrators' || !rule.addresses) continue;
      const userId = (event.data as Record<string, unknown>)[rule.addresses.user];
      if (typeof userId !== 'number' || readable.has(userId)) continue;
      const user = viewer.role === 'operator' ? null : await this.users.byId(viewer.realmId, userId);
      readable.set(userId, viewer.role === 'operator' || (user !== null && canSeeDeliveryEmail(user, viewer)));
    }
    return readable;
  }

  /** Whether the reader may read each message the events are about, and the message as it is now. */
  private async messageViews(viewer: Actor, events: RecordedEvent[]): Promise<Map<number, MessageView>> {
    const ids = new Set<number>();
    for (const event of events) {
      const rule = HISTORY_RULES[event.type];
      const id = rule?.read === 'message' ? (event.data as Record<string, unknown>)[rule.message] : undefined;
      if (typeof id === 'number') ids.add(id);
    }
    const views = new Map<number, MessageView>();
    if (ids.size === 0) return views;
    if (viewer.role === 'operator') {
      // Everything that is still there: a deleted message's document is gone.
      for (const id of ids) views.set(id, { readable: false });
      for (const doc of await this.messages.documents([...ids])) views.set(doc.id, { readable: true, current: currentOf(doc) });
      return views;
    }
    for (const id of ids) {
      try {
        views.set(id, { readable: true, current: currentOf((await this.messages.access(viewer, id)).doc) });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        views.set(id, { readable: false });
      }
    }
    return views;
  }

  /**
   * An administrator sees only their organization's events: a stream holding another's is refused.
   * Events without a `realmId` (a user's drafts, snippets, mutes, a bot's storage) belong to their owner's.
   */
  private async refuseOtherRealms(viewer: Actor, events: RecordedEvent[]): Promise<void> {
    const ownersChecked = new Map<number, boolean>();
    for (const event of events) {
      const data = event.data as Record<string, unknown>;
      if (data.realmId === viewer.realmId) continue;
      const rule = HISTORY_RULES[event.type];
      const owner = rule?.read === 'owner' && data.realmId === undefined ? data[rule.owner] : undefined;
      if (typeof owner === 'number') {
        if (!ownersChecked.has(owner)) ownersChecked.set(owner, (await this.users.byId(viewer.realmId, owner)) !== null);
        if (ownersChecked.get(owner)) continue;
      }
      throw new DomainError('Invalid stream');
    }
  }
}

const currentOf = (doc: { content: string; stream_id: number | null; subject: string }): CurrentMessage => ({ content: doc.content, streamId: doc.stream_id, topic: doc.subject });
