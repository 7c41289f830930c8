import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from '@app/domain';
import { shapes } from '../http/params/json-shapes';
import { BoolParam, JsonParam, StringParam } from '../http/params/param.decorators';

/** POST /channel_folders/create (create_channel_folder): both required, the description may be empty. */
export class CreateChannelFolderDto {
  @StringParam({ maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, description: 'The folder\'s description (Markdown); may be empty.' })
  description!: string;

  @StringParam({ maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH, description: 'The folder\'s name, unique ignoring case among folders that are not archived.' })
  name!: string;
}

/** GET /channel_folders. */
export class GetChannelFoldersDto {
  @BoolParam({ optional: true, description: 'Default false: list archived folders too.' })
  include_archived?: boolean;
}

/** PATCH /channel_folders/{channel_folder_id} (update_channel_folder). */
export class UpdateChannelFolderDto {
  @StringParam({ optional: true, maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, description: 'New description.' })
  description?: string;

  @BoolParam({ optional: true, description: 'true archives the folder (it must hold no channel), false unarchives it.' })
  is_archived?: boolean;

  @StringParam({ optional: true, maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH, description: 'New name.' })
  name?: string;
}

/** PATCH /channel_folders (reorder_realm_channel_folders). */
export class ReorderChannelFoldersDto {
  @JsonParam(shapes.list(shapes.int()), { description: 'The ids of every channel folder (archived ones too), in the new order.' })
  order!: number[];
}
