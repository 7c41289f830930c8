import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { DraftQueries } from './draft.queries';

/** `drafts`: the user's drafts, most recently edited first. */
@Injectable()
export class DraftsRegisterSections implements AreaRegisterSections {
  constructor(private readonly drafts: DraftQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'drafts', read: async (actor) => ({ drafts: await this.drafts.list(actor.userId!) }) }];
  }
}
