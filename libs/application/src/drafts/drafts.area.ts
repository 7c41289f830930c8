import { DRAFT_EVENT_TYPES, draftsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { DraftsClientEvents } from './drafts.client-events';
import { DraftsRegisterSections } from './drafts.register';
import type { Provider } from '@nestjs/common';
import { CreateDraftsHandler } from './create-drafts.handler';
import { DeleteAllDraftsHandler, DeleteDraftHandler } from './delete-draft.handler';
import { SettingsSideEffects } from '../settings/settings-side-effects';
import { DraftsCleanupSideEffects } from './drafts-cleanup.side-effects';
import { DraftFactsLoader } from './draft.facts-loader';
import { DraftQueries } from './draft.queries';
import { DraftsSynchronization } from './drafts-synchronization';
import { EditDraftHandler } from './edit-draft.handler';

const handlers: Provider[] = [CreateDraftsHandler, EditDraftHandler, DeleteDraftHandler, DeleteAllDraftsHandler, DraftFactsLoader];
// Turning draft synchronization off deletes the drafts: the settings area's seam, bound here.
const settingsSideEffects: Provider = { provide: SettingsSideEffects, useClass: DraftsCleanupSideEffects };
const queries: Provider[] = [DraftQueries, DraftsSynchronization];

/** A user's drafts, synchronized between their clients. */
export const draftsArea = defineArea({
  name: 'drafts',
  providers: [...handlers, ...queries, settingsSideEffects],
  exports: queries,
  clientEvents: DraftsClientEvents,
  registerSections: DraftsRegisterSections,
  deciders: [draftsDecider],
  events: DRAFT_EVENT_TYPES,
  idSequences: [{ sequence: 'draft', fields: ['draftId'] }],
});
