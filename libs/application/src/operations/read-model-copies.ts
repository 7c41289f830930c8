import type { ReadStorePort } from '../ports/read-store.port';
import type { UserMessageStorePort } from '../ports/user-message-store.port';

/**
 * Blue/green copies of the read models, for rebuilds: a fresh, empty copy is filled by a
 * projector of its own while the live one keeps serving, then the live stores are switched to it
 * (see RoutingReadStore) and the switch is recorded so that the next start opens the new copy.
 *
 * Embedded: a copy is a new SQLite file in the data directory, and the switch is recorded in a
 * small layout file (which file holds which collections). Servers (MongoReadModelCopies): a copy
 * is the live collections' names with a suffix, renamed over the live ones at the switch
 * (persistLayout), so every process reads the new documents under the live names (see
 * docs/operations.md).
 */
export type ReadModelCopy = {
  /** What the operator sees (a file name, a collection suffix). */
  label: string;
  readStore: ReadStorePort;
  userMessageStore: UserMessageStorePort;
};

/** Which copy holds which read models: a default copy, and per-collection (or checkpoint) exceptions. */
export type ReadModelLayout = {
  /** The copy holding everything not routed elsewhere (and the per-user message state unless routed). */
  default: string;
  /** Collection name → copy label. */
  collections: Record<string, string>;
  /** Projection checkpoint name → copy label (the checkpoint lives beside its documents). */
  checkpoints: Record<string, string>;
};

export interface ReadModelCopiesPort {
  /** False when the adapter set cannot make copies (the rebuild then says why). */
  readonly supported: boolean;
  /**
   * True when persistLayout moves the copy's data over the live data (MongoDB renames): the old
   * documents are gone and the old stores already read the new ones, so after a one-projection
   * rebuild nothing may be cleared from the old copy.
   */
  readonly renamesOverLive?: boolean;
  /** Opens a fresh, empty copy next to the live ones. */
  create(): Promise<ReadModelCopy>;
  /**
   * Records the layout the next start opens (atomically: the old layout or the new, never half;
   * MongoDB renames collection by collection, and a start finishes a switch left halfway).
   */
  persistLayout(layout: ReadModelLayout): Promise<void>;
  /** Closes a copy no longer in the layout and removes its data. */
  drop(label: string): Promise<void>;
  /** Closes the copies this object opened. */
  close(): Promise<void>;
}

export const READ_MODEL_COPIES = Symbol('READ_MODEL_COPIES');

/** The live read models and what a rebuild needs to switch them (provided under LIVE_READ_MODELS). */
export type LiveReadModels = {
  readStore: import('./routing-read-store').RoutingReadStore;
  userMessages: import('./routing-read-store').SwitchableUserMessageStore;
  copies: ReadModelCopiesPort;
};

export const LIVE_READ_MODELS = Symbol('LIVE_READ_MODELS');
