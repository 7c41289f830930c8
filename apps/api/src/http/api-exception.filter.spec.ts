import { NotFoundException, type ArgumentsHost } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import { DomainError } from '@app/domain';
import { ApiExceptionFilter } from './api-exception.filter';
import { RateLimitedError } from './api.errors';

type Captured = { status?: number; body?: Record<string, unknown>; headers: Record<string, string> };

function harness(routes: { path: RegExp; methods: string[] }[] = []) {
  const logged: { obj: Record<string, unknown>; msg: string }[] = [];
  const logger = { error: (obj: Record<string, unknown>, msg: string) => logged.push({ obj, msg }) } as unknown as Logger;
  const stack = routes.map((r) => ({ route: { methods: Object.fromEntries(r.methods.map((m) => [m.toLowerCase(), true])) }, match: (p: string) => r.path.test(p) }));
  const adapterHost = { httpAdapter: { getInstance: () => ({ router: { stack } }) } } as unknown as HttpAdapterHost;
  const filter = new ApiExceptionFilter(adapterHost, logger);
  const run = (exception: unknown, request: { method?: string; path?: string; id?: string } = {}) => {
    const captured: Captured = { headers: {} };
    const response = {
      headersSent: false,
      setHeader: (k: string, v: string) => (captured.headers[k.toLowerCase()] = v),
      status(code: number) {
        captured.status = code;
        return this;
      },
      json: (body: Record<string, unknown>) => (captured.body = body),
    };
    const host = { switchToHttp: () => ({ getRequest: () => ({ method: 'GET', path: '/api/v1/x', id: 'req-42', ...request }), getResponse: () => response }) } as unknown as ArgumentsHost;
    filter.catch(exception, host);
    return captured;
  };
  return { run, logged };
}

describe('ApiExceptionFilter', () => {
  it('renders a domain error in the envelope with its status, code and extra fields', () => {
    const { run } = harness();
    expect(run(new DomainError('Invalid channel ID', 'BAD_REQUEST', 400, { stream_id: 7 }))).toMatchObject({
      status: 400,
      body: { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST', stream_id: 7 },
    });
  });

  it('turns an unexpected exception into a logged 500 that names only the request id', () => {
    const { run, logged } = harness();
    const secret = new Error('SQLITE_CORRUPT at /var/lib/secret/path: token=abc');
    const captured = run(secret);
    expect(captured).toEqual({
      status: 500,
      headers: {},
      body: { result: 'error', msg: 'Internal server error (request req-42)', code: 'INTERNAL_SERVER_ERROR', request_id: 'req-42' },
    });
    expect(JSON.stringify(captured.body)).not.toContain('SQLITE');
    expect(logged).toEqual([{ obj: expect.objectContaining({ err: secret, reqId: 'req-42', path: '/api/v1/x' }), msg: 'unhandled error' }]);
  });

  it('answers a method the path does not take with 405 and the allowed methods', () => {
    const { run } = harness([{ path: /^\/api\/v1\/drafts$/, methods: ['GET', 'POST'] }]);
    const captured = run(new NotFoundException('Cannot DELETE /api/v1/drafts'), { method: 'DELETE', path: '/api/v1/drafts' });
    expect(captured).toMatchObject({ status: 405, headers: { allow: 'GET, POST, HEAD' }, body: { msg: 'Method Not Allowed', allowed_methods: ['GET', 'POST', 'HEAD'] } });
  });

  it('lists HEAD only where the path has GET (rest_dispatch)', () => {
    const { run } = harness([{ path: /^\/api\/v1\/typing$/, methods: ['POST'] }]);
    const captured = run(new NotFoundException('Cannot GET /api/v1/typing'), { method: 'GET', path: '/api/v1/typing' });
    expect(captured).toMatchObject({ status: 405, headers: { allow: 'POST' }, body: { allowed_methods: ['POST'] } });
  });

  it('answers an unknown path with 404', () => {
    const { run } = harness([{ path: /^\/api\/v1\/drafts$/, methods: ['GET'] }]);
    expect(run(new NotFoundException('Cannot GET /api/v1/nothing'), { path: '/api/v1/nothing' })).toMatchObject({ status: 404, body: { msg: 'Not Found', code: 'BAD_REQUEST' } });
  });

  it('adds WWW-Authenticate to 401s and Retry-After to 429s', () => {
    const { run } = harness();
    expect(run(new DomainError('Invalid API key', 'UNAUTHORIZED', 401)).headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(run(new RateLimitedError(17))).toMatchObject({ status: 429, headers: { 'retry-after': '17' }, body: { code: 'RATE_LIMIT_HIT', 'retry-after': 17 } });
  });
});
