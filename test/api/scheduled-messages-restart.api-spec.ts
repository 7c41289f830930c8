import { runScheduledRestartScenario } from '../../bench/scheduled-restarts';

/**
 * Exactly once across restarts, crashes and racing workers (issue 7): 10,000 pending scheduled
 * messages (SCHEDULED_RESTART_COUNT to change it) survive two restarts, deliveries crash between
 * their steps in the first phase, and two workers race in the last; each is delivered once.
 */
const COUNT = Number(process.env.SCHEDULED_RESTART_COUNT ?? 10_000);

describe('scheduled messages across restarts', () => {
  it(`delivers each of ${COUNT} pending scheduled messages exactly once across restarts, crashes and two racing workers`, async () => {
    const result = await runScheduledRestartScenario({ count: COUNT, restarts: 2, crashEvery: 97, racingWorkers: true });
    expect(result).toMatchObject({
      scheduled: COUNT,
      deliveredDocuments: COUNT,
      messagesSent: COUNT,
      distinctDelivered: COUNT,
      duplicates: 0,
      missing: 0,
      failed: 0,
      idsMatchClaims: true,
    });
    expect(result.crashesInjected).toBeGreaterThan(0);
    // Both the API and the worker delivered part of the last phase (they really raced).
    expect(result.racingDeliveries).toEqual([expect.any(Number), expect.any(Number)]);
    expect(Math.min(...result.racingDeliveries)).toBeGreaterThan(0);
  }, 900_000);
});
