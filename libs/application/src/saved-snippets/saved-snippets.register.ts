import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { SavedSnippetQueries } from './saved-snippet.queries';

/** `saved_snippets`: the user's saved snippets. */
@Injectable()
export class SavedSnippetsRegisterSections implements AreaRegisterSections {
  constructor(private readonly snippets: SavedSnippetQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'saved_snippets', read: async (actor) => ({ saved_snippets: await this.snippets.list(actor.userId!) }) }];
  }
}
