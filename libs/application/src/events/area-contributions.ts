import type { Actor } from '@app/domain';
import type { ClientEventMapperList } from './client-event-registry';

/**
 * What an area contributes to real-time events: for each domain event type it owns, the mapper
 * that turns it into client events (Zulip's send_event calls for that area's mutations). An area
 * writes one `@Injectable()` class in `<area>/<area>.client-events.ts` and names it in its
 * descriptor (`clientEvents` in `<area>/<area>.area.ts`).
 */
export interface AreaClientEvents {
  clientEvents(): ClientEventMapperList;
}

/** Per-request options of POST /register that sections may read. */
export type RegisterStateOptions = {
  includeSubscribers: boolean;
  /** `client_capabilities` as the client sent them (absent keys are false). */
  clientCapabilities?: Record<string, boolean>;
  /** The client's `slim_presence`. */
  slimPresence?: boolean;
  /** The client's `presence_last_update_id` (only presence changed since). */
  presenceLastUpdateId?: number;
  /** The client's `presence_history_limit_days`. */
  presenceHistoryLimitDays?: number;
};

/**
 * One part of POST /register's initial state (zerver/lib/events.py fetch_initial_state_data),
 * fetched when the client asks for `fetchType` (in `fetch_event_types`, defaulting to
 * `event_types`, defaulting to every type). Sections read the read models only, so
 * RegisterCoordinator can make the whole state consistent with one log position.
 */
export type RegisterSection = {
  fetchType: string;
  /** Other event types that ask for this section (`channel_folder` asks for `channel_folders`). */
  aliases?: string[];
  /** Fetched only when these types are wanted too (Zulip's `unread_msgs` needs `message`). */
  alsoRequires?: string[];
  /**
   * Left out when the client named the types it wants and these are among them (Zulip sends the
   * legacy `muted_topics` only to clients that do not ask for `user_topic`).
   */
  supersededBy?: string[];
  read(actor: Actor, options: RegisterStateOptions): Promise<Record<string, unknown>>;
};

/**
 * What an area contributes to /register: one `@Injectable()` class in `<area>/<area>.register.ts`,
 * named in its descriptor (`registerSections` in `<area>/<area>.area.ts`).
 */
export interface AreaRegisterSections {
  registerSections(): RegisterSection[];
}
