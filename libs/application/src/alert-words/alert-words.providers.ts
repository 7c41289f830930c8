import type { Provider } from '@nestjs/common';
import { AddAlertWordsHandler, RemoveAlertWordsHandler } from './alert-words.handler';
import { AlertWordQueries } from './alert-word.queries';

/** The alert words area's handlers and queries, registered by ApplicationModule. */
export const ALERT_WORDS_HANDLERS: Provider[] = [AddAlertWordsHandler, RemoveAlertWordsHandler];
export const ALERT_WORDS_QUERIES: Provider[] = [AlertWordQueries];
