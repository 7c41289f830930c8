import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpAdapter } from './http-adapter';

describe('createHttpAdapter', () => {
  it('makes a server whose requests and responses have the Express prototypes before Express sees them', async () => {
    const adapter = createHttpAdapter();
    const app = adapter.getInstance<Express>();
    app.get('/probe', (req, res) => {
      res.json({ app: req.app === app, ownPath: req.path, isIncoming: req instanceof http.IncomingMessage, isResponse: res instanceof http.ServerResponse });
    });
    adapter.initHttpServer({});
    const server = adapter.getHttpServer() as http.Server;
    // Seen before Express's own handler, which would set the prototypes itself.
    const seen: boolean[] = [];
    server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<string>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/probe', agent: false }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(text));
        }).on('error', reject);
      });
      expect(seen).toEqual([true, true]);
      expect(JSON.parse(body)).toEqual({ app: true, ownPath: '/probe', isIncoming: true, isResponse: true });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('routes case-sensitively', () => {
    expect(createHttpAdapter().getInstance<Express>().enabled('case sensitive routing')).toBe(true);
  });
});
