import { Writable } from 'node:stream';
import pino from 'pino';
import { PinoNestLogger, usePrettyLogs } from './logger';

describe('logs', () => {
  it('are readable in development on a terminal, JSON everywhere else; LOG_FORMAT overrides', () => {
    expect(usePrettyLogs('auto', 'development', true)).toBe(true);
    expect(usePrettyLogs('auto', 'development', false)).toBe(false);
    expect(usePrettyLogs('auto', 'production', true)).toBe(false);
    expect(usePrettyLogs('auto', 'test', true)).toBe(false);
    expect(usePrettyLogs('json', 'development', true)).toBe(false);
    expect(usePrettyLogs('pretty', 'production', false)).toBe(true);
  });

  it("put Nest's start-up chatter (module init, route mapping) at debug, its other lines at info", () => {
    const entries: { level: number; msg: string; context?: string }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        entries.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const nest = new PinoNestLogger(pino({ level: 'trace' }, sink));
    nest.log('Mapped {/api/v1/users, GET} route', 'RouterExplorer');
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('UsersController {/api/v1/users}:', 'RoutesResolver');
    nest.log('Nest application successfully started', 'NestApplication');
    nest.log('something an operator should see', 'Scheduler');
    expect(entries.map((e) => [e.level, e.context])).toEqual([
      [20, 'RouterExplorer'],
      [20, 'InstanceLoader'],
      [20, 'RoutesResolver'],
      [20, 'NestApplication'],
      [30, 'Scheduler'],
    ]);
  });
});
