import { DRAFT_TYPES, type DraftInput } from '@app/domain';
import { type Shape, shapes } from '../http/params/json-shapes';
import { InvalidParamError } from '../http/params/param.errors';
import { JsonParam } from '../http/params/param.decorators';
import { requiredString } from '../http/params/required-string.shape';

/**
 * DraftData's `timestamp: int | float | None` (strict): pydantic names the union member that
 * failed first in the error's location, so a string is "…["timestamp"]["int"] is not an integer".
 */
const timestamp: Shape<number | null> = {
  describe: { type: ['number', 'null'] },
  parse: (value, p) => {
    if (value === null || (typeof value === 'number' && Number.isFinite(value))) return value;
    throw new InvalidParamError(`${p}["int"] is not an integer`);
  },
};

/** zerver/lib/drafts.py DraftData (extra keys forbidden; `content` stripped and required). */
const draft = shapes.object<DraftInput>(
  {
    type: shapes.literal(DRAFT_TYPES),
    to: shapes.list(shapes.int()),
    topic: shapes.string(),
    content: requiredString(),
    timestamp: timestamp as Shape<number | null | undefined>,
  },
  ['timestamp'],
);

/** POST /drafts (create_drafts). */
export class CreateDraftsDto {
  @JsonParam(shapes.list(draft), { description: 'Drafts to create: type, to, topic, content and an optional timestamp.' })
  drafts!: DraftInput[];
}

/** PATCH /drafts/{draft_id} (edit_draft). */
export class EditDraftDto {
  @JsonParam(draft, { description: 'The new version of the draft, replacing the old one.' })
  draft!: DraftInput;
}
