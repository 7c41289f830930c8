import type { ModuleMetadata, Provider, Type } from '@nestjs/common';
import type { Decider } from '@app/domain';
import type { AreaClientEvents, AreaRegisterSections } from './events/area-contributions';

/**
 * An id sequence an area allocates from (IdAllocatorPort.next / nextBlock), and the event fields
 * that carry its ids. After an import of the log, or at boot once a sequence store was dropped or
 * restored from an older backup, each sequence moves above the largest id the log holds in those
 * fields (operations/event-log-backup.ts collectIds, operations/id-sequences.ts).
 */
export type IdSequence = {
  /** The sequence's name, as handlers pass it to `ids.next(…)`. */
  sequence: string;
  /** Event payload keys (at any depth) whose numbers are ids from this sequence. */
  fields: readonly string[];
  /**
   * Ids are `offset + n` for `n` allocated from the sequence (named user groups live above the
   * system groups' conventional ids); a field value at or below the offset is not from it.
   */
  offset?: number;
};

/**
 * Everything an area contributes to the application's shared lists, in one place
 * (`<area>/<area>.area.ts`), listed once in AREAS (areas.ts). ApplicationModule, the id sequences
 * of backup/restore and the boot scan, and the checks of areas.spec.ts are built from these; the
 * projections (libs/projections/src/areas.ts) and the HTTP app's response schemas
 * (apps/api/src/areas.ts) keep one entry per area name of their own layer. See docs/adding-an-area.md.
 */
export type AreaDescriptor = {
  /** The area's folder name (`realm-playgrounds`), the key of its entries in the other layers. */
  name: string;
  /** Nest providers: command handlers, query services, facts loaders, seams (`{ provide, useClass }`). */
  providers: readonly Provider[];
  /** What the HTTP app and other areas may inject (its queries and seams). */
  exports?: NonNullable<ModuleMetadata['exports']>;
  /** Its real-time events: domain event type → client events (`<area>.client-events.ts`). */
  clientEvents?: Type<AreaClientEvents>;
  /** Its parts of POST /register's initial state (`<area>.register.ts`). */
  registerSections?: Type<AreaRegisterSections>;
  /** The deciders of its streams (their `snapshot` codecs are its snapshot declarations). */
  deciders?: readonly Decider<any, any, any>[];
  /** The domain event types it owns (written by its deciders; an event type shared by several deciders is owned by one area). */
  events?: readonly string[];
  /** The id sequences it allocates from. */
  idSequences?: readonly IdSequence[];
};

/** Keeps the area's name a literal type, so that the other layers' per-area records are checked against AREAS. */
export const defineArea = <const A extends AreaDescriptor>(area: A): A => area;
