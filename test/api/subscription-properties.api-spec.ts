import { personaHelpers } from '@app/testing';
import { ApiTestClient, expectError, expectSuccess } from '../support';

/**
 * POST /users/me/subscriptions/properties and PATCH /users/me/subscriptions/{stream_id}
 * (≈ zerver/tests/test_subs.py SubscriptionPropertiesTest).
 */
const PROPERTIES = '/api/v1/users/me/subscriptions/properties';
const SUBSCRIPTIONS = '/api/v1/users/me/subscriptions';

describe('subscription properties', () => {
  let api: ApiTestClient;
  let design: number;
  let secret: number;
  beforeEach(async () => {
    api = await ApiTestClient.start();
    expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'design' }, { name: 'devel' }] }));
    expectSuccess(await api.as('iago').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'secret' }], invite_only: true }));
    design = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'design' })).stream_id;
    secret = expectSuccess(await api.as('iago').get('/api/v1/get_stream_id', { stream: 'secret' })).stream_id;
    await api.markEvents();
  });
  afterEach(() => api.close());

  const subscription = async (who: string, channelId: number) =>
    (expectSuccess(await api.as(who).get(SUBSCRIPTIONS)).subscriptions as Record<string, any>[]).find((s) => s.stream_id === channelId)!;
  const bulk = (who: string, data: unknown) => api.as(who).post(PROPERTIES, { subscription_data: data });
  const { refused: expectRefused } = personaHelpers(() => api);

  describe('POST /users/me/subscriptions/properties', () => {
    it('changes the color, pinning and notification settings, shown in GET /users/me/subscriptions', async () => {
      const body = expectSuccess(await bulk('hamlet', [
        { stream_id: design, property: 'color', value: '#ffffff' },
        { stream_id: design, property: 'pin_to_top', value: true },
        { stream_id: design, property: 'desktop_notifications', value: true },
        { stream_id: design, property: 'audible_notifications', value: false },
        { stream_id: design, property: 'push_notifications', value: true },
        { stream_id: design, property: 'email_notifications', value: false },
        { stream_id: design, property: 'wildcard_mentions_notify', value: true },
      ]));
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await subscription('hamlet', design)).toMatchObject({
        color: '#ffffff', pin_to_top: true, desktop_notifications: true, audible_notifications: false, push_notifications: true,
        email_notifications: false, wildcard_mentions_notify: true, is_muted: false, in_home_view: true,
      });
    });

    it('mutes with is_muted or in_home_view, recording both properties each time (feature level 139)', async () => {
      expectSuccess(await bulk('hamlet', [{ stream_id: design, property: 'is_muted', value: true }]));
      expect(await subscription('hamlet', design)).toMatchObject({ is_muted: true, in_home_view: false });
      const events = await api.newEvents();
      expect(events.map((e) => [e.streamId, e.data.property, e.data.newValue])).toEqual([
        [`subscription_properties-${api.user('hamlet').userId}`, 'in_home_view', false],
        [`subscription_properties-${api.user('hamlet').userId}`, 'is_muted', true],
      ]);
      await api.markEvents();
      expectSuccess(await bulk('hamlet', [{ stream_id: design, property: 'in_home_view', value: true }]));
      expect(await subscription('hamlet', design)).toMatchObject({ is_muted: false, in_home_view: true });
      expect((await api.newEvents()).map((e) => [e.data.property, e.data.newValue])).toEqual([['in_home_view', true], ['is_muted', false]]);
    });

    it('takes short hex colors, as check_color does', async () => {
      expectSuccess(await bulk('hamlet', [{ stream_id: design, property: 'color', value: '#f00' }]));
      expect((await subscription('hamlet', design)).color).toBe('#f00');
    });

    it('changes only the caller\'s subscription', async () => {
      expectSuccess(await api.as('cordelia').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'design' }] }));
      const before = (await subscription('cordelia', design)).color;
      expectSuccess(await bulk('hamlet', [{ stream_id: design, property: 'color', value: '#000000' }]));
      expect((await subscription('cordelia', design)).color).toBe(before);
    });

    it('keeps the settings when the user leaves and comes back', async () => {
      expectSuccess(await bulk('hamlet', [{ stream_id: design, property: 'pin_to_top', value: true }, { stream_id: design, property: 'color', value: '#123456' }]));
      expectSuccess(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['design'] }));
      expectSuccess(await api.as('hamlet').post(SUBSCRIPTIONS, { subscriptions: [{ name: 'design' }] }));
      expect(await subscription('hamlet', design)).toMatchObject({ pin_to_top: true, color: '#123456' });
    });

    it('accepts the multipart shape zulip-js sends', async () => {
      expectSuccess(await api.as('hamlet').postMultipart(PROPERTIES, { subscription_data: [{ stream_id: design, property: 'pin_to_top', value: true }] }));
      expect((await subscription('hamlet', design)).pin_to_top).toBe(true);
    });

    it('refuses bad entries with Zulip\'s messages, before changing any', async () => {
      const ok = { stream_id: design, property: 'pin_to_top', value: true };
      const cases: [unknown, string][] = [
        [[ok, { stream_id: design, property: 'bad', value: 'bad' }], 'Unknown subscription property: bad'],
        [[ok, { stream_id: design, property: 'is_muted', value: 'bad' }], 'is_muted is not a boolean'],
        [[ok, { stream_id: design, property: 'in_home_view', value: 'bad' }], 'in_home_view is not a boolean'],
        [[ok, { stream_id: design, property: 'color', value: '3ffrff' }], 'Invalid subscription_data[1]: Value error, color is not a valid hex color code'],
        [[{ stream_id: design, property: 'color', value: false }], 'Invalid subscription_data[0]: Value error, color is not a valid hex color code'],
        [[{ property: 'color', value: '#ffffff' }], 'subscription_data[0]["stream_id"] field is missing: Field required'],
        [[{ stream_id: design, property: 'color' }], 'subscription_data[0]["value"] field is missing: Field required'],
        [[{ stream_id: 'design', property: 'color', value: '#ffffff' }], 'subscription_data[0]["stream_id"] is not an integer'],
        [{ stream_id: design }, 'subscription_data is not a list'],
        [[ok, { stream_id: 1000, property: 'is_muted', value: false }], 'Invalid channel ID'],
        [[ok, { stream_id: secret, property: 'is_muted', value: false }], 'Invalid channel ID'],
      ];
      for (const [data, msg] of cases) await expectRefused(await bulk('hamlet', data), msg);
      await expectRefused(await api.as('hamlet').post(PROPERTIES, {}), "Missing 'subscription_data' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      expect((await subscription('hamlet', design)).pin_to_top).toBe(false);
    });

    it('refuses channels the caller is not subscribed to', async () => {
      expectSuccess(await api.as('hamlet').delete(SUBSCRIPTIONS, { subscriptions: ['devel'] }));
      const devel = expectSuccess(await api.as('hamlet').get('/api/v1/get_stream_id', { stream: 'devel' })).stream_id;
      await api.markEvents();
      await expectRefused(await bulk('hamlet', [{ stream_id: devel, property: 'color', value: '#ffffff' }]), `Not subscribed to channel ID ${devel}`);
      await expectRefused(await bulk('cordelia', [{ stream_id: design, property: 'color', value: '#ffffff' }]), `Not subscribed to channel ID ${design}`);
    });

    it('lists parameters it does not support', async () => {
      const body = expectSuccess(await api.as('hamlet').post(PROPERTIES, {
        subscription_data: [{ stream_id: design, property: 'wildcard_mentions_notify', value: true }],
        invalid_parameter: [{ stream_id: design, property: 'pin_to_top', value: false }],
      }));
      expect(body.ignored_parameters_unsupported).toEqual(['invalid_parameter']);
    });
  });

  describe('PATCH /users/me/subscriptions/{stream_id}', () => {
    it('changes one property: a JSON boolean or a literal color', async () => {
      expectSuccess(await api.as('hamlet').patch(`${SUBSCRIPTIONS}/${design}`, { property: 'is_muted', value: true }));
      expectSuccess(await api.as('hamlet').patch(`${SUBSCRIPTIONS}/${design}`, { property: 'color', value: '#abcdef' }));
      expect(await subscription('hamlet', design)).toMatchObject({ is_muted: true, in_home_view: false, color: '#abcdef' });
    });

    it('accepts the parameters in the query string, as zulip-js sends PATCH', async () => {
      const { email, apiKey } = api.user('hamlet');
      expectSuccess(await api.http.patch(`${SUBSCRIPTIONS}/${design}`).query({ property: 'pin_to_top', value: 'true' }).auth(email, apiKey));
      expect((await subscription('hamlet', design)).pin_to_top).toBe(true);
    });

    it('refuses what the bulk endpoint refuses', async () => {
      await expectRefused(await api.as('hamlet').patch(`${SUBSCRIPTIONS}/${design}`, { property: 'bad', value: true }), 'Unknown subscription property: bad');
      await expectRefused(await api.as('hamlet').patch(`${SUBSCRIPTIONS}/${design}`, { property: 'pin_to_top', value: 'yes' }), 'pin_to_top is not a boolean');
      await expectRefused(await api.as('hamlet').patch(`${SUBSCRIPTIONS}/${design}`, { property: 'color', value: 'blue' }), 'color is not a valid hex color code');
      await expectRefused(await api.as('hamlet').patch(`${SUBSCRIPTIONS}/1000`, { property: 'pin_to_top', value: true }), 'Invalid channel ID');
      await expectRefused(await api.as('cordelia').patch(`${SUBSCRIPTIONS}/${design}`, { property: 'pin_to_top', value: true }), `Not subscribed to channel ID ${design}`);
      await expectRefused(await api.as('hamlet').patch(`${SUBSCRIPTIONS}/${design}`, { value: true }), "Missing 'property' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      await expectRefused(await api.as('hamlet').patch(`${SUBSCRIPTIONS}/${design}`, { property: 'pin_to_top' }), "Missing 'value' argument", { code: 'REQUEST_VARIABLE_MISSING' });
      expect((await api.as('hamlet').patch(`${SUBSCRIPTIONS}/abc`, { property: 'pin_to_top', value: true })).status).toBe(404);
    });
  });
});
