import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '@app/domain';
import type { RegisterSection, RegisterStateOptions } from './area-contributions';

/** Every area's /register sections (the descriptors' `registerSections`, flattened by ApplicationModule). */
export const REGISTER_SECTIONS = Symbol('REGISTER_SECTIONS');

/**
 * POST /register's initial state (zerver/lib/events.py fetch_initial_state_data), assembled from
 * the sections the areas contribute, each under Zulip's keys and fetched only when the client asks
 * for its event type (`fetch_event_types`, defaulting to `event_types`, defaulting to everything).
 */
@Injectable()
export class RegisterState {
  private readonly sections = new Map<string, RegisterSection>();
  /** Event types whose state lives under another fetch type (channel_folder's is channel_folders). */
  private readonly aliases = new Map<string, string>();

  constructor(@Inject(REGISTER_SECTIONS) sections: RegisterSection[]) {
    for (const section of sections) {
      if (this.sections.has(section.fetchType)) throw new Error(`two /register sections for ${section.fetchType}`);
      this.sections.set(section.fetchType, section);
      for (const alias of section.aliases ?? []) this.aliases.set(alias, section.fetchType);
    }
  }

  /** The fetch types this server knows (a request's other types fetch nothing). */
  get knownTypes(): string[] {
    return [...this.sections.keys()];
  }

  async fetch(actor: Actor, types: string[] | undefined, options: RegisterStateOptions = { includeSubscribers: false }): Promise<Record<string, unknown>> {
    const requested = types?.map((t) => this.aliases.get(t) ?? t);
    const wanted =
      requested === undefined
        ? [...this.sections.values()]
        : [...new Set(requested)]
            .map((t) => this.sections.get(t))
            .filter(
              (s): s is RegisterSection =>
                s !== undefined && (s.alsoRequires ?? []).every((r) => requested.includes(r)) && !(s.supersededBy ?? []).some((r) => requested.includes(r)),
            );
    const parts = await Promise.all(wanted.map((section) => section.read(actor, options)));
    return Object.assign({}, ...parts);
  }
}
