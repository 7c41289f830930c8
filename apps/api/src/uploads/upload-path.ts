import { isUploadPathId } from '@app/domain';
import { UploadFileNotFoundError } from './uploads.errors';

/**
 * The path id of `/user_uploads/<realm_id>/<rest…>` (Express 5 hands a wildcard over as its
 * decoded segments). Anything not shaped like a path id this server hands out is "File not found.".
 */
export function uploadPathIdOf(realmId: string, rest: string | string[] | undefined): string {
  const tail = Array.isArray(rest) ? rest.join('/') : (rest ?? '');
  const pathId = `${realmId}/${tail}`;
  if (!/^[0-9]{1,15}$/.test(realmId) || !isUploadPathId(pathId)) throw new UploadFileNotFoundError();
  return pathId;
}
