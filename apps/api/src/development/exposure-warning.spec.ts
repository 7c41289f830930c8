import { developmentExposureWarning, isLoopback } from './exposure-warning';

describe('the warning of a development server beyond loopback', () => {
  it('says it loudly when a development server listens on every interface or a network address', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'chat.example.com']) {
      const warning = developmentExposureWarning({ env: 'development', host, port: 9991 });
      expect(warning).toContain(`DEVELOPMENT server is listening on ${host}:9991, beyond loopback`);
      expect(warning).toContain('dev_fetch_api_key');
    }
  });

  it('stays quiet on loopback, and for production and test servers (their development login is closed)', () => {
    for (const host of ['127.0.0.1', '127.0.1.1', 'localhost', '::1', '[::1]']) expect(developmentExposureWarning({ env: 'development', host, port: 9991 })).toBeNull();
    expect(developmentExposureWarning({ env: 'production', host: '0.0.0.0', port: 9991 })).toBeNull();
    expect(developmentExposureWarning({ env: 'test', host: '0.0.0.0', port: 9991 })).toBeNull();
    expect(isLoopback('128.0.0.1')).toBe(false);
  });
});
