import { AddLinkifierHandler, RemoveLinkifierHandler, ReorderLinkifiersHandler, UpdateLinkifierHandler } from './linkifier.handlers';
import { LinkifierQueries } from './linkifier-queries';

export const LINKIFIERS_HANDLERS = [AddLinkifierHandler, UpdateLinkifierHandler, RemoveLinkifierHandler, ReorderLinkifiersHandler];
export const LINKIFIERS_QUERIES = [LinkifierQueries];
