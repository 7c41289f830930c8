import { AddLinkifierHandler, RemoveLinkifierHandler, ReorderLinkifiersHandler, UpdateLinkifierHandler } from './linkifier.handler';
import { LinkifierQueries } from './linkifier.queries';

export const LINKIFIERS_HANDLERS = [AddLinkifierHandler, UpdateLinkifierHandler, RemoveLinkifierHandler, ReorderLinkifiersHandler];
export const LINKIFIERS_QUERIES = [LinkifierQueries];
