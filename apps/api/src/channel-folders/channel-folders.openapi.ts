import { type AreaOpenApi, bool, int, object, ref, str } from '../openapi/schema-helpers';

/** The channel-folders area's response schemas (openapi/openapi-document.ts). */
export const channelFoldersOpenApi: AreaOpenApi = {
  resources: {
    ChannelFolder: object({
      id: int,
      name: str,
      order: int,
      date_created: { type: ['integer', 'null'] },
      creator_id: { type: ['integer', 'null'] },
      description: str,
      rendered_description: str,
      is_archived: bool,
    }),
  },
  responses: {
    'POST /api/v1/channel_folders/create': object({ channel_folder_id: int }),
    'GET /api/v1/channel_folders': object({ channel_folders: { type: 'array', items: ref('ChannelFolder') } }),
  },
};
