import { SCHEDULER, ScheduledDeliveries, SWEEP_GRACE_SECONDS, SWEEP_INTERVAL_MS } from '@app/application';
import type { TimerScheduler } from '@app/infrastructure';
import { Projector } from '@app/projections';
import { ApiTestClient, expectSuccess } from '../support';

/**
 * Scheduled messages through faults (issue 19): a write whose read-your-writes wait times out
 * (503) still has its delivery armed or moved, and a message whose delivery job is gone (retries
 * exhausted during an outage, an enqueue that failed) is delivered by the minute's sweep.
 */
describe('scheduled messages survive faults', () => {
  let api: ApiTestClient;
  afterEach(() => api?.close());

  const now = () => Math.floor(api.clock.now().getTime() / 1000);
  const scheduler = () => api.app.get<TimerScheduler>(SCHEDULER);
  const cordelia = () => api.user('cordelia').userId;
  const contentsOf = async (who: string) =>
    (expectSuccess(await api.as(who).get('/api/v1/messages', { anchor: 'newest', num_before: 100, num_after: 0 })).messages as { content: string }[]).map((m) => m.content);
  const schedule = async (content: string, at: number) =>
    expectSuccess(await api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'direct', to: [cordelia()], content, scheduled_delivery_timestamp: at })).scheduled_message_id as number;

  describe('a 503 (projection wait timeout) never leaves a message unarmed', () => {
    beforeEach(async () => {
      api = await ApiTestClient.start({ config: { projectionWaitTimeoutMs: 300 } });
    });

    it('POST: the job is armed before the wait, and the message is delivered at its time', async () => {
      // Only the handler arms here: the arming reactor and the sweep are stopped.
      await api.app.get(ScheduledDeliveries).beforeApplicationShutdown();
      const projector = api.app.get(Projector);
      await projector.stop();
      const at = now() + 120;
      const response = await api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'direct', to: [cordelia()], content: 'through a 503', scheduled_delivery_timestamp: at });
      expect(response.status).toBe(503);
      const pending = await scheduler().pendingJobIds();
      expect(pending).toHaveLength(1);
      expect(pending[0]).toMatch(new RegExp(`^scheduled_message-\\d+-at-${at}$`));

      await projector.start();
      await projector.catchUp(5000);
      api.clock.advance(121_000);
      await scheduler().runDue();
      expect((await contentsOf('cordelia')).filter((c) => c === '<p>through a 503</p>')).toHaveLength(1);
    });

    it('PATCH: the job is moved before the wait', async () => {
      const at = now() + 120;
      const id = await schedule('moved through a 503', at);
      await api.app.get(ScheduledDeliveries).beforeApplicationShutdown();
      const projector = api.app.get(Projector);
      await projector.stop();
      const response = await api.as('hamlet').patch(`/api/v1/scheduled_messages/${id}`, { scheduled_delivery_timestamp: at + 600 });
      expect(response.status).toBe(503);
      expect(await scheduler().pendingJobIds()).toEqual([`scheduled_message-${id}-at-${at + 600}`]);
      await projector.start();
      await projector.catchUp(5000);
    });
  });

  describe('the sweep', () => {
    let setIntervalSpy: jest.SpyInstance;
    beforeEach(async () => {
      setIntervalSpy = jest.spyOn(global, 'setInterval');
      api = await ApiTestClient.start();
    });
    afterEach(() => setIntervalSpy.mockRestore());

    it('runs every minute and delivers a due message whose job is gone, once', async () => {
      const at = now() + 60;
      const id = await schedule('swept', at);
      // The job exhausted its retries during an outage (BullMQ keeps it in its failed set, where
      // a re-arm with the same id is ignored): as far as the scheduler goes, it is gone.
      await scheduler().cancel(`scheduled_message-${id}-at-${at}`);
      // The timers armed at boot with the sweep's period (other components have minute timers too).
      expect(SWEEP_INTERVAL_MS).toBe(60_000);
      const minuteTimers = setIntervalSpy.mock.calls.filter(([, ms]) => ms === SWEEP_INTERVAL_MS).map(([fn]) => fn as () => void);
      const tick = () => minuteTimers.forEach((fn) => fn());

      // Due, but not yet SWEEP_GRACE_SECONDS late: left to its job.
      api.clock.advance((60 + SWEEP_GRACE_SECONDS / 2) * 1000);
      expect(await api.app.get(ScheduledDeliveries).sweep()).toBe(0);
      expect(await contentsOf('cordelia')).not.toContain('<p>swept</p>');

      api.clock.advance(SWEEP_GRACE_SECONDS * 1000);
      const sweepSpy = jest.spyOn(api.app.get(ScheduledDeliveries), 'sweep');
      tick();
      expect(sweepSpy).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 100 && !(await contentsOf('cordelia')).includes('<p>swept</p>'); i++) await new Promise((r) => setTimeout(r, 20));
      expect((await contentsOf('cordelia')).filter((c) => c === '<p>swept</p>')).toHaveLength(1);
      // Delivered: later sweeps find nothing to do.
      expect(await api.app.get(ScheduledDeliveries).sweep()).toBe(0);
      expect(expectSuccess(await api.as('hamlet').get('/api/v1/scheduled_messages')).scheduled_messages).toEqual([]);
    });

    it('a message found over 10 minutes late fails, as Zulip’s delivery does', async () => {
      const at = now() + 60;
      const id = await schedule('too late', at);
      await scheduler().cancel(`scheduled_message-${id}-at-${at}`);
      api.clock.advance((60 + 11 * 60) * 1000);
      expect(await api.app.get(ScheduledDeliveries).sweep()).toBe(1);
      expect(await contentsOf('cordelia')).not.toContain('<p>too late</p>');
      const [failed] = expectSuccess(await api.as('hamlet').get('/api/v1/scheduled_messages')).scheduled_messages as { failed: boolean }[];
      expect(failed).toMatchObject({ failed: true });
    });
  });
});
