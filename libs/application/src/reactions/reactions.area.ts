import { REACTION_EVENT_TYPES, reactionsDecider } from '@app/domain';
import { defineArea } from '../area-descriptor';
import { ReactionsMessageExtension } from './reactions.message-extension';
import { ReactionsClientEvents } from './reactions.client-events';
import type { Provider } from '@nestjs/common';
import { AddReactionHandler, RemoveReactionHandler } from './reaction.handler';
import { ReactionQueries } from './reaction.queries';

const handlers: Provider[] = [AddReactionHandler, RemoveReactionHandler];
const queries: Provider[] = [ReactionQueries];

/** Emoji reactions to messages. */
export const reactionsArea = defineArea({
  name: 'reactions',
  // What the area adds to message objects and narrows (messages/message-extensions.ts).
  providers: [...handlers, ...queries, ReactionsMessageExtension],
  exports: queries,
  clientEvents: ReactionsClientEvents,
  deciders: [reactionsDecider],
  events: REACTION_EVENT_TYPES,
});
