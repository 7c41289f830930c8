import { ALERT_WORD_EVENT_TYPES, alertWordsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { AlertWordsClientEvents } from './alert-words.client-events';
import { AlertWordsRegisterSections } from './alert-words.register';
import type { Provider } from '@nestjs/common';
import { AddAlertWordsHandler, RemoveAlertWordsHandler } from './alert-words.handler';
import { AlertWordQueries } from './alert-word.queries';

const handlers: Provider[] = [AddAlertWordsHandler, RemoveAlertWordsHandler];
const queries: Provider[] = [AlertWordQueries];

/** A user's alert words. */
export const alertWordsArea = defineArea({
  name: 'alert-words',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: AlertWordsClientEvents,
  registerSections: AlertWordsRegisterSections,
  deciders: [alertWordsDecider],
  events: ALERT_WORD_EVENT_TYPES,
});
