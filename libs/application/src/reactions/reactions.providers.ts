import type { Provider } from '@nestjs/common';
import { AddReactionHandler, RemoveReactionHandler } from './reaction.handler';
import { ReactionQueries } from './reaction.queries';
import { ReactionsMessageExtension } from './reactions.message-extension';

/** The reactions area's handlers and queries, registered by ApplicationModule. */
export const REACTIONS_HANDLERS: Provider[] = [AddReactionHandler, RemoveReactionHandler];
export const REACTIONS_QUERIES: Provider[] = [ReactionQueries, ReactionsMessageExtension];
