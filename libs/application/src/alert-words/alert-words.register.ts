import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { AlertWordQueries } from './alert-word.queries';

/** `alert_words`: the user's alert words (fetch_initial_state_data). */
@Injectable()
export class AlertWordsRegisterSections implements AreaRegisterSections {
  constructor(private readonly queries: AlertWordQueries) {}

  registerSections(): RegisterSection[] {
    return [{ fetchType: 'alert_words', read: async (actor) => ({ alert_words: actor.userId === null ? [] : await this.queries.wordsOf(actor.userId) }) }];
  }
}
