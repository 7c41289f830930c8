import type { Logger } from 'pino';
import type { AppConfig } from '@app/config';
import type { SchedulerPort } from '../ports/scheduler.port';
import { ScheduledMessageJobs } from './scheduled-message-jobs';

/** An enqueue that fails (Redis away) is logged as an error, never swallowed, and never fails the write. */
describe('ScheduledMessageJobs: a failed enqueue', () => {
  const setup = () => {
    const errors: { obj: Record<string, unknown>; msg: string }[] = [];
    const logger = { error: (obj: Record<string, unknown>, msg: string) => errors.push({ obj, msg }) } as unknown as Logger;
    const scheduler: SchedulerPort = {
      schedule: jest.fn(async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      }),
      cancel: jest.fn(async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      }),
      process: jest.fn(async () => undefined),
      pendingJobIds: jest.fn(async () => []),
      close: jest.fn(async () => undefined),
    };
    const config = { runScheduledJobs: false, schedulerDriver: 'servers' } as AppConfig;
    return { errors, scheduler, jobs: new ScheduledMessageJobs(scheduler, logger, config) };
  };

  it('arm: logged with the message and the cause; the caller goes on', async () => {
    const { errors, scheduler, jobs } = setup();
    await expect(jobs.arm(12, 1_900_000_000)).resolves.toBeUndefined();
    expect(scheduler.schedule).toHaveBeenCalledWith(expect.objectContaining({ id: 'scheduled_message-12-at-1900000000', runAt: new Date(1_900_000_000_000) }));
    expect(errors).toHaveLength(1);
    expect(errors[0].obj).toMatchObject({ scheduledMessageId: 12, action: 'arm' });
    expect((errors[0].obj.err as Error).message).toMatch(/ECONNREFUSED/);
    expect(errors[0].msg).toMatch(/could not arm/);
  });

  it('move: both the disarm and the arm are logged', async () => {
    const { errors, jobs } = setup();
    await jobs.move(12, 1_900_000_000, 1_900_000_600);
    expect(errors.map((e) => e.obj.action)).toEqual(['disarm', 'arm']);
  });
});
