import type { Provider } from '@nestjs/common';
import { CreateDraftsHandler } from './create-drafts.handler';
import { DeleteAllDraftsHandler, DeleteDraftHandler } from './delete-draft.handler';
import { DraftFactsLoader } from './draft.facts-loader';
import { DraftQueries } from './draft.queries';
import { DraftsSynchronization } from './drafts-synchronization';
import { EditDraftHandler } from './edit-draft.handler';

/** The drafts area's handlers and queries, registered by ApplicationModule. */
export const DRAFTS_HANDLERS: Provider[] = [CreateDraftsHandler, EditDraftHandler, DeleteDraftHandler, DeleteAllDraftsHandler, DraftFactsLoader];
export const DRAFTS_QUERIES: Provider[] = [DraftQueries, DraftsSynchronization];
