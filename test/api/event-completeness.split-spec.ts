/**
 * The event-completeness property (event-completeness.api-spec.ts) in the split layout: the jest
 * project `split` sets SPLIT_LAYOUT=1, so the server is one worker with the projectors and two API
 * applications, personas spread over them (a user's queues live on one, their changes are made
 * through either). 60 seeds by default there; the same knobs (EVENT_COMPLETENESS_SEEDS, …).
 *
 *   npx jest test/api/event-completeness.split-spec.ts --selectProjects split
 */
import './event-completeness.api-spec';
