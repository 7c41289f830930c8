import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { APP_CONFIG, DELIVER_SCHEDULED_MESSAGE_JOB, deliveryJobId, SCHEDULER, type SchedulerPort } from '@app/application';
import type { AppConfig } from '@app/config';
import { describeIfServer } from '@app/testing';
import { ApiTestClient, expectSuccess } from '../support';
import { WorkerModule } from '../../apps/worker/src/worker.module';

/**
 * Servers scheduling end to end: the API adds BullMQ delayed jobs (RUN_SCHEDULED_JOBS=false) and
 * apps/worker's module runs them, on the same stores. CI runs it against a real redis-server.
 */
describeIfServer('REDIS_URL', 'scheduled messages through BullMQ and apps/worker', (redisUrl) => {
  let api: ApiTestClient;
  let worker: INestApplicationContext;
  beforeEach(async () => {
    api = await ApiTestClient.start({ config: { schedulerDriver: 'servers', runScheduledJobs: false, redisUrl } });
  });
  afterEach(async () => {
    // Leave nothing in Redis for the next run: this test's jobs name this test's data directory's ids.
    const scheduler = api.app.get<SchedulerPort>(SCHEDULER);
    for (const id of await scheduler.pendingJobIds()) await scheduler.cancel(id);
    await worker?.close();
    await api.close();
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('the API schedules, the worker delivers once; an edit moves the job and a delete removes it', async () => {
    const apiConfig = api.app.get<AppConfig>(APP_CONFIG);
    worker = await NestFactory.createApplicationContext(
      WorkerModule.forRoot({ config: { ...apiConfig, runProjectors: false, schedulerDriver: 'servers' }, clock: api.clock }),
      { logger: false },
    );
    await worker.init();
    const at = Math.floor(api.clock.now().getTime() / 1000) + 2;
    const cordelia = api.user('cordelia').userId;
    const schedule = async (content: string) =>
      expectSuccess(await api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'direct', to: [cordelia], content, scheduled_delivery_timestamp: at })).scheduled_message_id as number;
    const delivered = await schedule('through BullMQ');
    const deleted = await schedule('deleted before its time');
    const moved = await schedule('moved an hour later');
    expectSuccess(await api.as('hamlet').delete(`/api/v1/scheduled_messages/${deleted}`));
    expectSuccess(await api.as('hamlet').patch(`/api/v1/scheduled_messages/${moved}`, { scheduled_delivery_timestamp: at + 3600 }));
    api.clock.advance(2000);
    const contents = async () =>
      (expectSuccess(await api.as('cordelia').get('/api/v1/messages', { anchor: 'newest', num_before: 50, num_after: 0 })).messages as { content: string }[]).map((m) => m.content);
    for (let i = 0; i < 200 && !(await contents()).includes('<p>through BullMQ</p>'); i++) await sleep(50);
    await sleep(500);
    expect((await contents()).filter((c) => c === '<p>through BullMQ</p>')).toHaveLength(1);
    expect(await contents()).not.toContain('<p>deleted before its time</p>');
    expect(await contents()).not.toContain('<p>moved an hour later</p>');
    const pending = expectSuccess(await api.as('hamlet').get('/api/v1/scheduled_messages')).scheduled_messages as { scheduled_message_id: number }[];
    expect(pending.map((m) => m.scheduled_message_id)).toEqual([moved]);

    // A re-arm that comes after the delivery (BullMQ removed the completed job, so the add is a
    // new job with the same id: a second run, which the port allows) sends nothing again.
    const scheduler = api.app.get<SchedulerPort>(SCHEDULER);
    const jobId = deliveryJobId(delivered, at);
    // Due in 1.5 s, so that the new job is seen waiting before the worker runs it.
    const runAt = new Date(api.clock.now().getTime() + 1500);
    await scheduler.schedule({ id: jobId, name: DELIVER_SCHEDULED_MESSAGE_JOB, data: { scheduledMessageId: delivered }, runAt });
    expect(await scheduler.pendingJobIds()).toContain(jobId);
    for (let i = 0; i < 200 && (await scheduler.pendingJobIds()).includes(jobId); i++) await sleep(50);
    expect(await scheduler.pendingJobIds()).not.toContain(jobId);
    expect((await contents()).filter((c) => c === '<p>through BullMQ</p>')).toHaveLength(1);
  }, 30_000);
});
