import type { CommandBus } from '@nestjs/cqrs';
import type { AppConfig } from '@app/config';
import type { Logger } from 'pino';
import { RunMessageRetentionCommand } from './message-retention.command';
import { MessageRetentionTimer } from './message-retention.timer';

/** When the process that runs scheduled jobs runs the retention job (MESSAGE_RETENTION_INTERVAL_SECONDS). */
describe('MessageRetentionTimer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const start = (config: Partial<AppConfig>, run: () => Promise<unknown> = async () => ({ deleted: 0, realms: [] })) => {
    const execute = jest.fn(run);
    const logger = { info: jest.fn(), error: jest.fn() };
    const timer = new MessageRetentionTimer(
      { execute } as unknown as CommandBus,
      { runScheduledJobs: true, messageRetentionIntervalSeconds: 86_400, ...config } as AppConfig,
      logger as unknown as Logger,
    );
    timer.onApplicationBootstrap();
    return { timer, execute, logger };
  };
  /** Lets the run's promise chain settle (it re-arms the timer when done). */
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it('runs a minute after boot, then once per interval, one run at a time', async () => {
    const { timer, execute } = start({});
    jest.advanceTimersByTime(59_999);
    expect(execute).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]).toEqual([expect.any(RunMessageRetentionCommand)]);
    await settle();
    jest.advanceTimersByTime(86_400_000 - 1);
    expect(execute).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    expect(execute).toHaveBeenCalledTimes(2);
    await settle();
    await timer.beforeApplicationShutdown();
    jest.advanceTimersByTime(10 * 86_400_000);
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('with an interval shorter than a minute, starts after one interval', () => {
    const { execute } = start({ messageRetentionIntervalSeconds: 5 });
    jest.advanceTimersByTime(5_000);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('never runs with the interval 0, or in a process that does not run scheduled jobs', () => {
    const off = start({ messageRetentionIntervalSeconds: 0 });
    const api = start({ runScheduledJobs: false });
    jest.advanceTimersByTime(30 * 86_400_000);
    expect(off.execute).not.toHaveBeenCalled();
    expect(api.execute).not.toHaveBeenCalled();
  });

  it('logs a failed run and tries again at the next interval', async () => {
    const { execute, logger, timer } = start({}, () => Promise.reject(new Error('disk full')));
    jest.advanceTimersByTime(60_000);
    await settle();
    expect(logger.error).toHaveBeenCalledWith({ err: new Error('disk full') }, 'message retention run failed');
    jest.advanceTimersByTime(86_400_000);
    expect(execute).toHaveBeenCalledTimes(2);
    await settle();
    await timer.beforeApplicationShutdown();
  });
});
