import { Injectable } from '@nestjs/common';
import type { DraftEdited, DraftsCreated, DraftsDeleted } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { apiDraftOf } from './draft.documents';

/** do_create_drafts, do_edit_draft, do_delete_draft: `drafts` events to the draft's owner. */
@Injectable()
export class DraftsClientEvents implements AreaClientEvents {
  clientEvents(): ClientEventMapperList {
    return {
      DraftsCreated: (e: Recorded<DraftsCreated>) => [{ userIds: [e.data.userId], event: { type: 'drafts', op: 'add', drafts: e.data.drafts.map(apiDraftOf) } }],
      DraftEdited: (e: Recorded<DraftEdited>) => [{ userIds: [e.data.userId], event: { type: 'drafts', op: 'update', draft: apiDraftOf(e.data.new) } }],
      DraftsDeleted: (e: Recorded<DraftsDeleted>) =>
        e.data.draftIds.map((id) => ({ userIds: [e.data.userId], event: { type: 'drafts', op: 'remove', draft_id: id } })),
    };
  }
}
