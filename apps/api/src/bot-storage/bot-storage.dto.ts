import { shapes } from '../http/params/json-shapes';
import { JsonParam } from '../http/params/param.decorators';

/** PUT /bot_storage (update_storage): `Json[dict[str, str]]`. */
export class PutBotStorageDto {
  @JsonParam(shapes.dict(shapes.string()), { description: 'Entries to store: an object of strings.' })
  storage!: Record<string, string>;
}

/** GET and DELETE /bot_storage: `Json[list[str]] | None`. */
export class BotStorageKeysDto {
  @JsonParam(shapes.list(shapes.string()), { optional: true, description: 'Keys to read or remove; every key when omitted.' })
  keys?: string[];
}
