import { ApiTestClient, expectSuccess } from '../support';

describe('GET /server_settings', () => {
  let api: ApiTestClient;
  afterEach(() => api.close());

  it('answers without authentication with every field of the spec, in both spellings', async () => {
    api = await ApiTestClient.start({ personas: [] });
    const body = expectSuccess(await api.http.get('/api/v1/server_settings'));
    expect(Object.keys(body).sort()).toEqual(
      [
        'authentication_methods', 'email_auth_enabled', 'external_authentication_methods', 'is_incompatible', 'msg',
        'push_notifications_enabled', 'realm_description', 'realm_icon', 'realm_name', 'realm_uri', 'realm_url',
        'realm_web_public_access_enabled', 'require_email_format_usernames', 'result', 'svc_feature_level', 'svc_merge_base',
        'svc_version', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version',
      ].sort(),
    );
    expect(body).toMatchObject({ realm_name: 'Acme Corp', realm_uri: body.realm_url, email_auth_enabled: true, external_authentication_methods: [] });
    expect(body.zulip_version).toBe(body.svc_version);
    expect(body.zulip_feature_level).toBe(body.svc_feature_level);
    expect(body.svc_merge_base).toBe(body.svc_version);
    expect(body.authentication_methods).toMatchObject({ password: true, dev: false, ldap: false });
    const icon = await api.http.get(new URL(body.realm_icon).pathname);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('drops the zulip_* aliases when ZULIP_ALIASES is off, in register too', async () => {
    api = await ApiTestClient.start({ personas: ['hamlet'], config: { zulipAliases: false } });
    const body = expectSuccess(await api.http.get('/api/v1/server_settings'));
    expect(body).not.toHaveProperty('zulip_version');
    expect(body).toHaveProperty('svc_version');
    const register = expectSuccess(await api.as('hamlet').post('/api/v1/register'));
    expect(register).not.toHaveProperty('zulip_feature_level');
    expect(register).toHaveProperty('svc_feature_level');
  });
});
