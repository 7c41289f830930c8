import { DRAFT_EVENT_TYPES, draftsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { DraftsClientEvents } from './drafts.client-events';
import { DraftsRegisterSections } from './drafts.register';
import type { Provider } from '@nestjs/common';
import { CreateDraftsHandler } from './create-drafts.handler';
import { DeleteAllDraftsHandler, DeleteDraftHandler } from './delete-draft.handler';
import { DraftFactsLoader } from './draft.facts-loader';
import { DraftQueries } from './draft.queries';
import { DraftsSynchronization } from './drafts-synchronization';
import { EditDraftHandler } from './edit-draft.handler';

const handlers: Provider[] = [CreateDraftsHandler, EditDraftHandler, DeleteDraftHandler, DeleteAllDraftsHandler, DraftFactsLoader];
const queries: Provider[] = [DraftQueries, DraftsSynchronization];

/** A user's drafts, synchronized between their clients. */
export const draftsArea = defineArea({
  name: 'drafts',
  providers: [...handlers, ...queries],
  exports: queries,
  clientEvents: DraftsClientEvents,
  registerSections: DraftsRegisterSections,
  deciders: [draftsDecider],
  events: DRAFT_EVENT_TYPES,
  idSequences: [{ sequence: 'draft', fields: ['draftId'] }],
});
