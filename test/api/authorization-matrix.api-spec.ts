import { CommandBus } from '@nestjs/cqrs';
import { CreateBotCommand, CreateUserCommand, DeactivateUserCommand } from '@app/application';
import { operatorActor } from '@app/domain';
import { PUSH_KEY, TINY_PNG } from '@app/testing';
import { ApiTestClient } from '../support';
import { ProjectionRebuilder } from '@app/projections';
import type { Response } from 'supertest';
import { listApiRoutes } from '../../apps/api/src/openapi/api-routes';

/**
 * Who may call what (spec A1–A7, Zulip's decorators): every endpoint × every kind of caller, with
 * the outcome each must get. Each area adds its rows here as it lands. 0 unauthorized successes.
 */
type Caller = 'anonymous' | 'bad_key' | 'deactivated' | 'guest' | 'member' | 'moderator' | 'administrator' | 'owner' | 'bot';
const CALLERS: Caller[] = ['anonymous', 'bad_key', 'deactivated', 'guest', 'member', 'moderator', 'administrator', 'owner', 'bot'];
const PERSONA: Partial<Record<Caller, string>> = {
  deactivated: 'cordelia', guest: 'polonius', member: 'hamlet', moderator: 'shiva', administrator: 'iago', owner: 'desdemona', bot: 'bot',
};

/** ok: success; 401: credential failure; admin / owner / human / guest: the refusal of that guard; no_channel / not_channel_admin: Zulip's channel access refusals. */
type Outcome = 'ok' | 401 | 'admin' | 'owner' | 'human' | 'no_guest' | 'no_channel' | 'not_channel_admin' | 'bot_only' | 'insufficient' | 'not_emoji_author' | 'no_push' | 'invalid_device' | 'invalid_message' | 'only_owner' | 'invalid_attachment' | 'no_edit' | 'no_delete';
const AUTHENTICATED: Caller[] = ['guest', 'member', 'moderator', 'administrator', 'owner', 'bot'];

type Row = {
  name: string;
  send: (api: ApiTestClient, as: (req: ReturnType<ApiTestClient['http']['get']>) => typeof req, caller: Caller) => Promise<Response>;
  /** Outcome by caller; callers not listed get 401 (or 'ok' for public endpoints). */
  outcomes: Partial<Record<Caller, Outcome>>;
  public?: boolean;
};

const everyone = (outcome: Outcome): Partial<Record<Caller, Outcome>> => Object.fromEntries(AUTHENTICATED.map((c) => [c, outcome]));
const adminsOnly = (): Partial<Record<Caller, Outcome>> => ({ ...everyone('admin'), administrator: 'ok', owner: 'ok' });

const form = (req: ReturnType<ApiTestClient['http']['post']>, body: Record<string, string>) => req.type('form').send(body);

/** A channel created by Iago for one row and caller; public ones include the guest, so only access differs. */
const channelFor = async (api: ApiTestClient, name: string, options: { private?: boolean } = {}): Promise<number> => {
  const principals = options.private ? [api.user('iago').userId] : [api.user('iago').userId, api.user('polonius').userId];
  await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }], principals, invite_only: options.private === true });
  return (await api.as('iago').get('/api/v1/get_stream_id', { stream: name })).body.stream_id;
};
/** Channel administration: administrators of the organization (and the channel's creator, not among the callers). */
const channelAdmins = (): Partial<Record<Caller, Outcome>> => ({ ...everyone('not_channel_admin'), guest: 'no_channel', administrator: 'ok', owner: 'ok' });
/** Reading a public channel the guest is not in: everyone but guests. */
const nonGuests = (): Partial<Record<Caller, Outcome>> => ({ ...everyone('ok'), guest: 'no_channel' });

const CHANNEL_ROWS: Row[] = [
  { name: 'GET /users/me/subscriptions', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/users/me/subscriptions')) },
  {
    name: 'POST /users/me/subscriptions',
    outcomes: { ...everyone('ok'), guest: 'no_guest' },
    send: (api, as, caller) => form(as(api.http.post('/api/v1/users/me/subscriptions')), { subscriptions: JSON.stringify([{ name: `joined by ${caller}` }]) }),
  },
  {
    name: 'DELETE /users/me/subscriptions',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      await channelFor(api, `left by ${caller}`);
      return as(api.http.delete('/api/v1/users/me/subscriptions')).query({ subscriptions: JSON.stringify([`left by ${caller}`]) });
    },
  },
  { name: 'GET /streams', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/streams')) },
  { name: 'GET /streams/{id}', outcomes: everyone('ok'), send: async (api, as, caller) => as(api.http.get(`/api/v1/streams/${await channelFor(api, `read by ${caller}`)}`)) },
  {
    name: 'GET /streams/{id} (private)',
    outcomes: { ...everyone('no_channel'), administrator: 'ok', owner: 'ok' },
    send: async (api, as, caller) => as(api.http.get(`/api/v1/streams/${await channelFor(api, `private read by ${caller}`, { private: true })}`)),
  },
  {
    name: 'GET /get_stream_id',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      await channelFor(api, `named by ${caller}`);
      return as(api.http.get('/api/v1/get_stream_id')).query({ stream: `named by ${caller}` });
    },
  },
  {
    name: 'PATCH /streams/{id}',
    outcomes: channelAdmins(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `renamed by ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`renamed by ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return form(as(api.http.patch(`/api/v1/streams/${channelId}`)), { description: `Described by ${caller}` });
    },
  },
  {
    name: 'DELETE /streams/{id}',
    outcomes: channelAdmins(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `archived by ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`archived by ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return as(api.http.delete(`/api/v1/streams/${channelId}`));
    },
  },
  {
    name: 'GET /streams/{id}/members',
    outcomes: nonGuests(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `counted by ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`counted by ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return as(api.http.get(`/api/v1/streams/${channelId}/members`));
    },
  },
  {
    name: 'GET /streams/{id}/email_address',
    outcomes: nonGuests(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `mailed by ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`mailed by ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return as(api.http.get(`/api/v1/streams/${channelId}/email_address`));
    },
  },
  {
    name: 'GET /users/me/{stream_id}/topics',
    outcomes: nonGuests(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `topics of ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`topics of ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return as(api.http.get(`/api/v1/users/me/${channelId}/topics`));
    },
  },
];

/** Personal data: drafts, saved snippets and mutes belong to every account; bot storage to bots only. */
const draftOf = (caller: Caller) => JSON.stringify([{ type: '', to: [], topic: '', content: `Draft of ${caller}` }]);
const botsOnly = (): Partial<Record<Caller, Outcome>> => ({ ...everyone('bot_only'), bot: 'ok' });
const scheduledOf = (api: ApiTestClient, caller: Caller) => {
  const self = PERSONA[caller] ? api.credentials.get(PERSONA[caller]!)?.userId : undefined;
  const at = Math.floor(api.clock.now().getTime() / 1000) + 3600;
  return { type: 'direct', to: JSON.stringify([self ?? 0]), content: `Scheduled by ${caller}`, scheduled_delivery_timestamp: String(at) };
};
const PERSONAL_DATA_ROWS: Row[] = [
  { name: 'GET /drafts', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/drafts')) },
  { name: 'POST /drafts', outcomes: everyone('ok'), send: (api, as, caller) => form(as(api.http.post('/api/v1/drafts')), { drafts: draftOf(caller) }) },
  {
    name: 'PATCH /drafts/{id}',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const { ids } = (await form(as(api.http.post('/api/v1/drafts')), { drafts: draftOf(caller) })).body;
      return form(as(api.http.patch(`/api/v1/drafts/${ids?.[0]}`)), { draft: JSON.stringify({ type: '', to: [], topic: '', content: 'Edited' }) });
    },
  },
  {
    name: 'DELETE /drafts/{id}',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const { ids } = (await form(as(api.http.post('/api/v1/drafts')), { drafts: draftOf(caller) })).body;
      return as(api.http.delete(`/api/v1/drafts/${ids?.[0]}`));
    },
  },
  // Scheduled messages: every account schedules its own (here, a direct message to itself).
  { name: 'GET /scheduled_messages', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/scheduled_messages')) },
  { name: 'POST /scheduled_messages', outcomes: everyone('ok'), send: (api, as, caller) => form(as(api.http.post('/api/v1/scheduled_messages')), scheduledOf(api, caller)) },
  {
    name: 'PATCH /scheduled_messages/{id}',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const { scheduled_message_id } = (await form(as(api.http.post('/api/v1/scheduled_messages')), scheduledOf(api, caller))).body;
      return form(as(api.http.patch(`/api/v1/scheduled_messages/${scheduled_message_id}`)), { content: 'Edited' });
    },
  },
  {
    name: 'DELETE /scheduled_messages/{id}',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const { scheduled_message_id } = (await form(as(api.http.post('/api/v1/scheduled_messages')), scheduledOf(api, caller))).body;
      return as(api.http.delete(`/api/v1/scheduled_messages/${scheduled_message_id}`));
    },
  },
  { name: 'GET /saved_snippets', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/saved_snippets')) },
  {
    name: 'POST /saved_snippets',
    outcomes: everyone('ok'),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/saved_snippets')), { title: `Snippet of ${caller}`, content: 'Hello' }),
  },
  {
    name: 'PATCH /saved_snippets/{id}',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const { saved_snippet_id } = (await form(as(api.http.post('/api/v1/saved_snippets')), { title: `Edited by ${caller}`, content: 'Hello' })).body;
      return form(as(api.http.patch(`/api/v1/saved_snippets/${saved_snippet_id}`)), { content: 'Edited' });
    },
  },
  {
    name: 'DELETE /saved_snippets/{id}',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const { saved_snippet_id } = (await form(as(api.http.post('/api/v1/saved_snippets')), { title: `Deleted by ${caller}`, content: 'Hello' })).body;
      return as(api.http.delete(`/api/v1/saved_snippets/${saved_snippet_id}`));
    },
  },
  // Cordelia (deactivated, so never a caller) can be muted by everyone.
  { name: 'POST /users/me/muted_users/{id}', outcomes: everyone('ok'), send: (api, as) => as(api.http.post(`/api/v1/users/me/muted_users/${api.user('cordelia').userId}`)) },
  {
    name: 'DELETE /users/me/muted_users/{id}',
    outcomes: everyone('ok'),
    send: async (api, as) => {
      await as(api.http.post(`/api/v1/users/me/muted_users/${api.user('cordelia').userId}`));
      return as(api.http.delete(`/api/v1/users/me/muted_users/${api.user('cordelia').userId}`));
    },
  },
  { name: 'PUT /bot_storage', outcomes: botsOnly(), send: (api, as) => form(as(api.http.put('/api/v1/bot_storage')), { storage: JSON.stringify({ key: 'value' }) }) },
  { name: 'GET /bot_storage', outcomes: botsOnly(), send: (api, as) => as(api.http.get('/api/v1/bot_storage')) },
  { name: 'DELETE /bot_storage', outcomes: botsOnly(), send: (api, as) => as(api.http.delete('/api/v1/bot_storage')) },
];

/** Settings, subscription properties and statuses: every human's own; others' settings and statuses for administrators. */
const userIdOf = (api: ApiTestClient, caller: Caller) => api.user(caller === 'bot' ? 'bot' : (PERSONA[caller] ?? 'hamlet')).userId;
/** A public channel Iago creates with the caller subscribed. */
const subscribedChannel = async (api: ApiTestClient, caller: Caller, name: string): Promise<number> => {
  await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }], principals: [api.user('iago').userId, userIdOf(api, caller)] });
  return (await api.as('iago').get('/api/v1/get_stream_id', { stream: name })).body.stream_id;
};
const SETTINGS_ROWS: Row[] = [
  { name: 'PATCH /settings', outcomes: { ...everyone('ok'), bot: 'human' }, send: (api, as) => form(as(api.http.patch('/api/v1/settings')), { twenty_four_hour_time: 'true' }) },
  {
    name: 'PATCH /settings (target_users)',
    outcomes: { ...adminsOnly(), bot: 'human' },
    send: (api, as) =>
      form(as(api.http.patch('/api/v1/settings')), { target_users: JSON.stringify({ user_ids: [api.user('hamlet').userId], skip_if_already_edited: false }), color_scheme: '2' }),
  },
  {
    name: 'POST /users/me/subscriptions/properties',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const channelId = await subscribedChannel(api, caller, `props of ${caller}`);
      return form(as(api.http.post('/api/v1/users/me/subscriptions/properties')), { subscription_data: JSON.stringify([{ stream_id: channelId, property: 'pin_to_top', value: true }]) });
    },
  },
  {
    name: 'PATCH /users/me/subscriptions/{id}',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const channelId = await subscribedChannel(api, caller, `prop of ${caller}`);
      return form(as(api.http.patch(`/api/v1/users/me/subscriptions/${channelId}`)), { property: 'color', value: '#abcdef' });
    },
  },
  { name: 'POST /users/me/status', outcomes: { ...everyone('ok'), bot: 'human' }, send: (api, as, caller) => form(as(api.http.post('/api/v1/users/me/status')), { status_text: `Status of ${caller}` }) },
  {
    name: 'POST /users/{id}/status',
    outcomes: { ...everyone('insufficient'), administrator: 'ok', owner: 'ok' },
    send: (api, as, caller) => form(as(api.http.post(`/api/v1/users/${api.user('hamlet').userId}/status`)), { status_text: `Set by ${caller}` }),
  },
  { name: 'GET /users/{id}/status', outcomes: everyone('ok'), send: (api, as) => as(api.http.get(`/api/v1/users/${api.user('hamlet').userId}/status`)) },
];

/** Organization administration (channel folders, custom profile fields, custom emoji) and push registration. */
const folderFor = async (api: ApiTestClient, name: string): Promise<number> =>
  (await api.as('iago').post('/api/v1/channel_folders/create', { name, description: '' })).body.channel_folder_id;
const profileFieldFor = async (api: ApiTestClient, name: string): Promise<number> =>
  (await api.as('iago').post('/api/v1/realm/profile_fields', { name, field_type: 1 })).body.id;
const allIds = async (api: ApiTestClient, path: string, key: string): Promise<number[]> =>
  ((await api.as('iago').get(path, { include_archived: true })).body[key] as { id: number }[]).map((x) => x.id);
const ADMINISTRATION_ROWS: Row[] = [
  { name: 'GET /channel_folders', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/channel_folders')) },
  {
    name: 'POST /channel_folders/create',
    outcomes: adminsOnly(),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/channel_folders/create')), { name: `Folder of ${caller}`, description: '' }),
  },
  {
    name: 'PATCH /channel_folders/{id}',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => form(as(api.http.patch(`/api/v1/channel_folders/${await folderFor(api, `Renamed by ${caller}`)}`)), { description: `By ${caller}` }),
  },
  {
    name: 'PATCH /channel_folders',
    outcomes: adminsOnly(),
    send: async (api, as) => form(as(api.http.patch('/api/v1/channel_folders')), { order: JSON.stringify((await allIds(api, '/api/v1/channel_folders', 'channel_folders')).reverse()) }),
  },
  {
    // update_stream_backend: message_retention_days is the owners' (after the right to administer the channel).
    name: 'PATCH /streams/{id} (message_retention_days)',
    outcomes: { ...channelAdmins(), administrator: 'owner' },
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `retained by ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`retained by ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return form(as(api.http.patch(`/api/v1/streams/${channelId}`)), { message_retention_days: '30' });
    },
  },
  {
    // list_to_streams: a retention of their own for the channels it creates is the owners'.
    name: 'POST /users/me/subscriptions (message_retention_days)',
    outcomes: { ...everyone('owner'), guest: 'no_guest', owner: 'ok' },
    send: (api, as, caller) =>
      form(as(api.http.post('/api/v1/users/me/subscriptions')), { subscriptions: JSON.stringify([{ name: `kept 30 days by ${caller}` }]), message_retention_days: '30' }),
  },
  {
    name: 'PATCH /streams/{id} (folder_id)',
    outcomes: channelAdmins(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `filed by ${caller}`);
      await api.as('iago').delete('/api/v1/users/me/subscriptions').query({ subscriptions: JSON.stringify([`filed by ${caller}`]), principals: JSON.stringify([api.user('polonius').userId]) });
      return form(as(api.http.patch(`/api/v1/streams/${channelId}`)), { folder_id: String(await folderFor(api, `Folder for ${caller}`)) });
    },
  },
  { name: 'GET /realm/profile_fields', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/realm/profile_fields')) },
  {
    name: 'POST /realm/profile_fields',
    outcomes: adminsOnly(),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/realm/profile_fields')), { name: `Field of ${caller}`, field_type: '1' }),
  },
  {
    name: 'PATCH /realm/profile_fields/{id}',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => form(as(api.http.patch(`/api/v1/realm/profile_fields/${await profileFieldFor(api, `Changed by ${caller}`)}`)), { hint: caller }),
  },
  {
    name: 'DELETE /realm/profile_fields/{id}',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => as(api.http.delete(`/api/v1/realm/profile_fields/${await profileFieldFor(api, `Deleted by ${caller}`)}`)),
  },
  {
    name: 'PATCH /realm/profile_fields',
    outcomes: adminsOnly(),
    send: async (api, as) => form(as(api.http.patch('/api/v1/realm/profile_fields')), { order: JSON.stringify((await allIds(api, '/api/v1/realm/profile_fields', 'custom_fields')).reverse()) }),
  },
  {
    name: 'PATCH /users/me/profile_data',
    outcomes: { ...everyone('ok'), bot: 'human' },
    send: async (api, as, caller) => form(as(api.http.patch('/api/v1/users/me/profile_data')), { data: JSON.stringify([{ id: await profileFieldFor(api, `Value of ${caller}`), value: 'x' }]) }),
  },
  {
    name: 'DELETE /users/me/profile_data',
    outcomes: { ...everyone('ok'), bot: 'human' },
    send: async (api, as, caller) => as(api.http.delete('/api/v1/users/me/profile_data')).query({ data: JSON.stringify([await profileFieldFor(api, `Cleared by ${caller}`)]) }),
  },
  { name: 'GET /realm/emoji', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/realm/emoji')) },
  {
    name: 'POST /realm/emoji/{name}',
    outcomes: { ...everyone('ok'), guest: 'no_guest' },
    send: (api, as, caller) => as(api.http.post(`/api/v1/realm/emoji/by_${caller}`)).attach('f1', TINY_PNG, 'emoji.png'),
  },
  {
    name: 'DELETE /realm/emoji/{name} (another\'s)',
    outcomes: { ...everyone('not_emoji_author'), administrator: 'ok', owner: 'ok' },
    send: async (api, as, caller) => {
      const { email, apiKey } = api.user('desdemona');
      await api.http.post(`/api/v1/realm/emoji/of_owner_for_${caller}`).auth(email, apiKey).attach('f1', TINY_PNG, 'emoji.png');
      return as(api.http.delete(`/api/v1/realm/emoji/of_owner_for_${caller}`));
    },
  },
  {
    name: 'POST /mobile_push/register',
    outcomes: { ...everyone('no_push'), bot: 'human' },
    send: (api, as) =>
      form(as(api.http.post('/api/v1/mobile_push/register')), { device_id: '1', push_key: PUSH_KEY, push_key_id: '1', token_kind: 'fcm', token_id: 'AAAAAAAAAAA=', bouncer_public_key: 'k', encrypted_push_registration: 'e' }),
  },
  // zerver/views/devices.py: no human_users_only; a device belongs to its user.
  { name: 'POST /register_client_device', outcomes: everyone('ok'), send: (api, as) => as(api.http.post('/api/v1/register_client_device')) },
  {
    name: 'POST /remove_client_device',
    outcomes: everyone('ok'),
    send: async (api, as) => {
      const registered = await as(api.http.post('/api/v1/register_client_device'));
      return form(as(api.http.post('/api/v1/remove_client_device')), { device_id: String(registered.body.device_id ?? 1) });
    },
  },
  {
    // Desdemona's device: administrators may not remove it either; only she (the owner caller) may.
    name: 'POST /remove_client_device (another\'s)',
    outcomes: { ...everyone('invalid_device'), owner: 'ok' },
    send: async (api, as) => {
      const { email, apiKey } = api.user('desdemona');
      const registered = await api.http.post('/api/v1/register_client_device').auth(email, apiKey);
      return form(as(api.http.post('/api/v1/remove_client_device')), { device_id: String(registered.body.device_id) });
    },
  },
  {
    name: 'POST /users/me/android_gcm_reg_id',
    outcomes: { ...everyone('ok'), bot: 'human' },
    send: (api, as, caller) => form(as(api.http.post('/api/v1/users/me/android_gcm_reg_id')), { token: `token-of-${caller}` }),
  },
  {
    name: 'DELETE /users/me/android_gcm_reg_id',
    outcomes: { ...everyone('ok'), bot: 'human' },
    send: async (api, as, caller) => {
      await form(as(api.http.post('/api/v1/users/me/android_gcm_reg_id')), { token: `removed-by-${caller}` });
      return as(api.http.delete('/api/v1/users/me/android_gcm_reg_id')).query({ token: `removed-by-${caller}` });
    },
  },
];

/** Organization settings and user groups (PATCH /realm, GET /user_groups). */
const REALM_SETTINGS_ROWS: Row[] = [
  {
    name: 'PATCH /realm',
    outcomes: adminsOnly(),
    send: (api, as, caller) => form(as(api.http.patch('/api/v1/realm')), { description: `Described by ${caller}`, allow_message_editing: 'true' }),
  },
  {
    // update_realm reserves some settings for owners, whatever the value (here the current one).
    name: 'PATCH /realm (owner-only settings)',
    outcomes: { ...everyone('admin'), administrator: 'owner', owner: 'ok' },
    send: (api, as) => form(as(api.http.patch('/api/v1/realm')), { can_create_groups: JSON.stringify({ new: api.systemGroupId('role:members') }) }),
  },
  {
    name: 'PATCH /realm (message_retention_days)',
    outcomes: { ...everyone('admin'), administrator: 'owner', owner: 'ok' },
    send: (api, as) => form(as(api.http.patch('/api/v1/realm')), { message_retention_days: '"unlimited"' }),
  },
  // require_member_or_admin: no guests, no bots.
  { name: 'GET /user_groups', outcomes: { ...everyone('ok'), guest: 'no_guest', bot: 'human' }, send: (api, as) => as(api.http.get('/api/v1/user_groups')) },
];

/** User groups: a group Iago created (he and the owners, by can_manage_all_groups, manage it). */
const userGroupFor = async (api: ApiTestClient, name: string): Promise<number> =>
  (await api.as('iago').post('/api/v1/user_groups/create', { name, description: '', members: [api.user('iago').userId] })).body.group_id;
/** require_member_or_admin (no guests, no bots), then the group's managers. */
const groupManagers = (): Partial<Record<Caller, Outcome>> => ({ ...everyone('insufficient'), guest: 'no_guest', bot: 'human', administrator: 'ok', owner: 'ok' });
const membersAndAdmins = (): Partial<Record<Caller, Outcome>> => ({ ...everyone('ok'), guest: 'no_guest', bot: 'human' });
const USER_GROUP_ROWS: Row[] = [
  {
    name: 'POST /user_groups/create',
    outcomes: membersAndAdmins(),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/user_groups/create')), { name: `created by ${caller}`, description: '', members: '[]' }),
  },
  {
    name: 'PATCH /user_groups/{id}',
    outcomes: groupManagers(),
    send: async (api, as, caller) => form(as(api.http.patch(`/api/v1/user_groups/${await userGroupFor(api, `patched for ${caller}`)}`)), { description: `by ${caller}` }),
  },
  {
    name: 'POST /user_groups/{id}/deactivate',
    // Not require_member_or_admin: only can_manage_group / can_manage_all_groups count.
    outcomes: { ...everyone('insufficient'), administrator: 'ok', owner: 'ok' },
    send: async (api, as, caller) => as(api.http.post(`/api/v1/user_groups/${await userGroupFor(api, `deactivated for ${caller}`)}/deactivate`)),
  },
  {
    name: 'POST /user_groups/{id}/members',
    outcomes: groupManagers(),
    send: async (api, as, caller) =>
      form(as(api.http.post(`/api/v1/user_groups/${await userGroupFor(api, `members for ${caller}`)}/members`)), { add: JSON.stringify([api.user('desdemona').userId]) }),
  },
  {
    name: 'POST /user_groups/{id}/subgroups',
    outcomes: groupManagers(),
    send: async (api, as, caller) => {
      const sub = await userGroupFor(api, `subgroup for ${caller}`);
      return form(as(api.http.post(`/api/v1/user_groups/${await userGroupFor(api, `supergroup for ${caller}`)}/subgroups`)), { add: JSON.stringify([sub]) });
    },
  },
  {
    name: 'GET /user_groups/{id}/members',
    outcomes: membersAndAdmins(),
    send: async (api, as, caller) => as(api.http.get(`/api/v1/user_groups/${await userGroupFor(api, `read for ${caller}`)}/members`)),
  },
  {
    name: 'GET /user_groups/{id}/members/{user_id}',
    outcomes: membersAndAdmins(),
    send: async (api, as, caller) => as(api.http.get(`/api/v1/user_groups/${await userGroupFor(api, `membership for ${caller}`)}/members/${api.user('iago').userId}`)),
  },
  {
    name: 'GET /user_groups/{id}/subgroups',
    outcomes: membersAndAdmins(),
    send: async (api, as, caller) => as(api.http.get(`/api/v1/user_groups/${await userGroupFor(api, `subgroups of ${caller}`)}/subgroups`)),
  },
];

/** Personal flags and read state (POST /messages/flags/narrow, /messages/flags, the mark-as-read endpoints). */
const MESSAGE_FLAGS_ROWS: Row[] = [
  {
    name: 'POST /messages/flags/narrow',
    outcomes: everyone('ok'),
    send: (api, as) => form(as(api.http.post('/api/v1/messages/flags/narrow')), { anchor: 'newest', num_before: '10', num_after: '0', narrow: '[]', op: 'add', flag: 'read' }),
  },
  {
    name: 'POST /messages/flags',
    outcomes: everyone('ok'),
    send: (api, as) => form(as(api.http.post('/api/v1/messages/flags')), { messages: '[]', op: 'add', flag: 'starred' }),
  },
  { name: 'POST /mark_all_as_read', outcomes: everyone('ok'), send: (api, as) => as(api.http.post('/api/v1/mark_all_as_read')) },
  {
    name: 'POST /mark_stream_as_read',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => form(as(api.http.post('/api/v1/mark_stream_as_read')), { stream_id: String(await channelFor(api, `read through by ${caller}`)) }),
  },
  {
    name: 'POST /mark_stream_as_read (private)',
    outcomes: { ...everyone('no_channel'), administrator: 'ok' },
    send: async (api, as, caller) => form(as(api.http.post('/api/v1/mark_stream_as_read')), { stream_id: String(await channelFor(api, `private read through by ${caller}`, { private: true })) }),
  },
  {
    name: 'POST /mark_topic_as_read',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const name = `topic read by ${caller}`;
      const principals = ['iago', 'polonius', 'hamlet', 'shiva', 'desdemona', 'bot'].map((p) => api.user(p).userId);
      await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }], principals });
      await api.as('iago').post('/api/v1/messages', { type: 'stream', to: name, topic: 'news', content: 'hello' });
      const streamId = (await api.as('iago').get('/api/v1/get_stream_id', { stream: name })).body.stream_id;
      return form(as(api.http.post('/api/v1/mark_topic_as_read')), { stream_id: String(streamId), topic_name: 'news' });
    },
  },
  {
    name: 'POST /user_topics',
    outcomes: everyone('ok'),
    send: async (api, as, caller) =>
      form(as(api.http.post('/api/v1/user_topics')), { stream_id: String(await channelFor(api, 'topics muted by everyone')), topic: `muted by ${caller}`, visibility_policy: '1' }),
  },
  {
    name: 'POST /user_topics (private)',
    outcomes: { ...everyone('no_channel'), administrator: 'ok' },
    send: async (api, as, caller) =>
      form(as(api.http.post('/api/v1/user_topics')), { stream_id: String(await channelFor(api, `topics followed by ${caller}`, { private: true })), topic: 'news', visibility_policy: '3' }),
  },
  {
    name: 'POST /user_topics (removing, private)',
    outcomes: everyone('ok'),
    send: async (api, as, caller) =>
      form(as(api.http.post('/api/v1/user_topics')), { stream_id: String(await channelFor(api, `topics unmuted by ${caller}`, { private: true })), topic: 'news', visibility_policy: '0' }),
  },
];

/** Messages, registration, deprecated settings aliases, own deactivation, Apple push tokens (issue 12's sweep of routes without rows). */
const channelMessage = async (api: ApiTestClient, caller: Caller): Promise<number> => {
  const name = `read here by ${caller}`;
  await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }] });
  return (await api.as('iago').post('/api/v1/messages', { type: 'stream', to: name, topic: 'matrix', content: `For ${caller}` })).body.id;
};
/**
 * Editing, moving and deleting (issue #5), on Iago's message in a public channel the guest is not
 * in: anyone may move its topic (can_move_messages_between_topics_group defaults to everyone),
 * only its sender (Iago) may edit its content, administrators may delete it; the guest cannot see it.
 */
const MESSAGE_EDIT_ROWS: Row[] = [
  {
    name: 'PATCH /messages/{id} (topic)',
    outcomes: { ...everyone('ok'), guest: 'invalid_message' },
    send: async (api, as, caller) => form(as(api.http.patch(`/api/v1/messages/${await channelMessage(api, caller)}`)), { topic: `moved by ${caller}` }),
  },
  {
    name: 'PATCH /messages/{id} (content of another\'s message)',
    // Iago (the administrator) sent it, so only he may.
    outcomes: { ...everyone('no_edit'), guest: 'invalid_message', administrator: 'ok' },
    send: async (api, as, caller) => form(as(api.http.patch(`/api/v1/messages/${await channelMessage(api, caller)}`)), { content: `edited by ${caller}` }),
  },
  {
    name: 'DELETE /messages/{id}',
    outcomes: { ...everyone('no_delete'), guest: 'invalid_message', administrator: 'ok', owner: 'ok' },
    send: async (api, as, caller) => as(api.http.delete(`/api/v1/messages/${await channelMessage(api, caller)}`)),
  },
  {
    name: 'GET /messages/{id}/history',
    outcomes: { ...everyone('ok'), guest: 'invalid_message' },
    send: async (api, as, caller) => as(api.http.get(`/api/v1/messages/${await channelMessage(api, caller)}/history`)),
  },
];
/** Reactions (issue #20), on Iago's message in a public channel the guest is not in: anyone who can read it may react. */
const REACTION_ROWS: Row[] = [
  {
    name: 'POST /messages/{id}/reactions',
    outcomes: { ...everyone('ok'), guest: 'invalid_message' },
    send: async (api, as, caller) => form(as(api.http.post(`/api/v1/messages/${await channelMessage(api, caller)}/reactions`)), { emoji_name: 'octopus' }),
  },
  {
    name: 'DELETE /messages/{id}/reactions',
    outcomes: { ...everyone('ok'), guest: 'invalid_message' },
    send: async (api, as, caller) => {
      const path = `/api/v1/messages/${await channelMessage(api, caller)}/reactions`;
      await form(as(api.http.post(path)), { emoji_name: 'octopus' });
      return as(api.http.delete(path)).query({ emoji_name: 'octopus' });
    },
  },
];
/**
 * Widgets: a vote (POST /submessage) on Iago's poll in a public channel the guest is not in: anyone
 * who can read the message may add to the widget its sender made (access_message).
 */
const SUBMESSAGE_ROWS: Row[] = [
  {
    name: 'POST /submessage',
    outcomes: { ...everyone('ok'), guest: 'invalid_message' },
    send: async (api, as, caller) => {
      const name = `poll read by ${caller}`;
      await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }] });
      const { id } = (await api.as('iago').post('/api/v1/messages', { type: 'stream', to: name, topic: 'matrix', content: `/poll For ${caller}?\nYes` })).body;
      return form(as(api.http.post('/api/v1/submessage')), { message_id: String(id), msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) });
    },
  },
];
/** Real-time events (issue #10): every caller works on its own queue; another's queue is refused as unknown. */
const EVENT_ROWS: Row[] = [
  {
    name: 'GET /events',
    outcomes: everyone('ok'),
    send: async (api, as) => {
      const { queue_id } = (await as(api.http.post('/api/v1/register')).type('form').send({ event_types: '["drafts"]' })).body;
      return as(api.http.get('/api/v1/events')).query({ queue_id: queue_id ?? 'none', last_event_id: '-1', dont_block: 'true' });
    },
  },
  {
    name: 'DELETE /events',
    outcomes: everyone('ok'),
    send: async (api, as) => {
      const { queue_id } = (await as(api.http.post('/api/v1/register')).type('form').send({ event_types: '["drafts"]' })).body;
      return as(api.http.delete('/api/v1/events')).query({ queue_id: queue_id ?? 'none' });
    },
  },
  { name: 'POST /typing', outcomes: everyone('ok'), send: (api, as) => form(as(api.http.post('/api/v1/typing')), { op: 'start', to: JSON.stringify([api.user('hamlet').userId]) }) },
];

const SWEEP_ROWS: Row[] = [
  { name: 'GET /messages', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/messages')).query({ anchor: 'newest', num_before: '5', num_after: '0' }) },
  {
    name: 'POST /messages',
    outcomes: everyone('ok'),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/messages')), { type: 'direct', to: JSON.stringify([api.user('iago').userId]), content: `Hello from ${caller}` }),
  },
  {
    name: 'GET /messages/{id}',
    // A public channel's message: every member may read it, a guest who is not subscribed may not.
    outcomes: { ...everyone('ok'), guest: 'invalid_message' },
    send: async (api, as, caller) => as(api.http.get(`/api/v1/messages/${await channelMessage(api, caller)}`)),
  },
  {
    name: 'GET /messages/{id} (direct message to someone else)',
    outcomes: { ...everyone('invalid_message'), member: 'ok' },
    send: async (api, as, caller) => {
      // From someone who is none of the callers, to Hamlet (the member): no one else may read it, administrators included.
      const sender = await api.app.get(CommandBus).execute(
        new CreateUserCommand({ actor: operatorActor(api.realmId) }, { email: `dm-sender-${caller}@acme.test`, fullName: `Sender ${caller}`, role: 'member', password: null }),
      );
      const sent = await form(api.http.post('/api/v1/messages').auth(`dm-sender-${caller}@acme.test`, sender.apiKey), {
        type: 'direct', to: JSON.stringify([api.user('hamlet').userId]), content: `Secret for hamlet, read by ${caller}`,
      });
      return as(api.http.get(`/api/v1/messages/${sent.body.id}`));
    },
  },
  { name: 'GET /register', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/register')) },
  { name: 'PATCH /settings/display', outcomes: { ...everyone('ok'), bot: 'human' }, send: (api, as) => form(as(api.http.patch('/api/v1/settings/display')), { twenty_four_hour_time: 'true' }) },
  { name: 'PATCH /settings/notifications', outcomes: { ...everyone('ok'), bot: 'human' }, send: (api, as) => form(as(api.http.patch('/api/v1/settings/notifications')), { twenty_four_hour_time: 'false' }) },
  {
    name: 'POST /users/me/apns_device_token',
    outcomes: { ...everyone('ok'), bot: 'human' },
    send: (api, as, caller) => form(as(api.http.post('/api/v1/users/me/apns_device_token')), { token: `apns-${caller}`.padEnd(64, '0').replace(/[^0-9a-f]/g, 'a'), appid: 'org.zulip.Zulip' }),
  },
  {
    name: 'DELETE /users/me/apns_device_token',
    outcomes: { ...everyone('ok'), bot: 'human' },
    send: async (api, as, caller) => {
      const token = `apnsgone-${caller}`.padEnd(64, '0').replace(/[^0-9a-f]/g, 'b');
      await form(as(api.http.post('/api/v1/users/me/apns_device_token')), { token, appid: 'org.zulip.Zulip' });
      return as(api.http.delete('/api/v1/users/me/apns_device_token')).query({ token });
    },
  },
  {
    name: 'DELETE /users/me',
    // Each caller deactivates themself, then the owner reactivates them (the only owner may not leave).
    outcomes: { ...everyone('ok'), owner: 'only_owner' },
    send: async (api, as, caller) => {
      const response = await as(api.http.delete('/api/v1/users/me'));
      const persona = PERSONA[caller];
      if (response.status === 200 && persona) await api.as('desdemona').post(`/api/v1/users/${api.user(persona).userId}/reactivate`);
      // Deactivating Hamlet also deactivated the bots he owns (as in Zulip): bring the matrix bot back.
      if (response.status === 200 && caller === 'member') await api.as('desdemona').post(`/api/v1/users/${api.user('bot').userId}/reactivate`);
      return response;
    },
  },
];

/** Uploads and attachments (who may read a file is the access matrix of test/api/uploads.api-spec.ts). */
const uploadAs = (as: (req: ReturnType<ApiTestClient['http']['get']>) => ReturnType<ApiTestClient['http']['get']>, api: ApiTestClient, name: string) =>
  as(api.http.post('/api/v1/user_uploads')).attach('file', Buffer.from(`contents of ${name}`), name);
const UPLOAD_ROWS: Row[] = [
  { name: 'POST /user_uploads', outcomes: everyone('ok'), send: (api, as, caller) => uploadAs(as, api, `by-${caller}.txt`) },
  {
    name: 'GET /user_uploads/{realm_id}/*path (temporary URL of an own upload)',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      const { email, apiKey } = api.user('desdemona');
      const fallback = (await api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file', Buffer.from('x'), 'fallback.txt')).body.url as string;
      const own = (await uploadAs(as, api, `url-of-${caller}.txt`)).body.url as string | undefined;
      return as(api.http.get(`/api/v1${own ?? fallback}`));
    },
  },
  { name: 'GET /attachments', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/attachments')) },
  {
    name: 'DELETE /attachments/{id} (own)',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => {
      await uploadAs(as, api, `deleted-by-${caller}.txt`);
      const listed = (await as(api.http.get('/api/v1/attachments'))).body.attachments as { id: number; name: string }[] | undefined;
      const id = listed?.find((a) => a.name === `deleted-by-${caller}.txt`)?.id ?? 999_999;
      return as(api.http.delete(`/api/v1/attachments/${id}`));
    },
  },
  {
    name: "DELETE /attachments/{id} (another's)",
    outcomes: everyone('invalid_attachment'),
    send: async (api, as, caller) => {
      const { email, apiKey } = api.user('desdemona');
      await api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file', Buffer.from('x'), `kept-from-${caller}.txt`);
      const listed = (await api.as('desdemona').get('/api/v1/attachments')).body.attachments as { id: number; name: string }[];
      const { id } = listed.find((a) => a.name === `kept-from-${caller}.txt`)!;
      // The owner herself may: that is the (own) row.
      return caller === 'owner' ? as(api.http.delete('/api/v1/attachments/999999')) : as(api.http.delete(`/api/v1/attachments/${id}`));
    },
  },
  {
    name: 'PATCH /users/{id} (profile_data)',
    outcomes: adminsOnly(),
    send: async (api, as, caller) =>
      form(as(api.http.patch(`/api/v1/users/${api.user('hamlet').userId}`)), { profile_data: JSON.stringify([{ id: await profileFieldFor(api, `Set for hamlet by ${caller}`), value: 'x' }]) }),
  },
];

/** Operators' endpoints (docs/operations.md): administrators only. */
/** Linkifiers (zerver/views/realm_linkifiers.py): everyone reads them, administrators change them. */
const linkifierFor = async (api: ApiTestClient, prefix: string): Promise<number> =>
  (await api.as('iago').post('/api/v1/realm/filters', { pattern: `${prefix}-(?P<id>\\d+)`, url_template: 'https://tracker.test/{id}' })).body.id;
const LINKIFIER_ROWS: Row[] = [
  { name: 'GET /realm/linkifiers', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/realm/linkifiers')) },
  {
    name: 'POST /realm/filters',
    outcomes: adminsOnly(),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/realm/filters')), { pattern: `ADD${caller}-(?P<id>\\d+)`, url_template: 'https://tracker.test/{id}' }),
  },
  {
    name: 'PATCH /realm/filters/{id}',
    outcomes: adminsOnly(),
    send: async (api, as, caller) =>
      form(as(api.http.patch(`/api/v1/realm/filters/${await linkifierFor(api, `CHG${caller}`)}`)), { pattern: `NEW${caller}-(?P<id>\\d+)`, url_template: 'https://tracker.test/{id}' }),
  },
  {
    name: 'DELETE /realm/filters/{id}',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => as(api.http.delete(`/api/v1/realm/filters/${await linkifierFor(api, `DEL${caller}`)}`)),
  },
  {
    name: 'PATCH /realm/linkifiers',
    outcomes: adminsOnly(),
    send: async (api, as) =>
      form(as(api.http.patch('/api/v1/realm/linkifiers')), { ordered_linkifier_ids: JSON.stringify((await allIds(api, '/api/v1/realm/linkifiers', 'linkifiers')).reverse()) }),
  },
];

/** Default channels (zerver/views/streams.py add_default_stream, remove_default_stream): administrators. */
const DEFAULT_CHANNEL_ROWS: Row[] = [
  {
    name: 'POST /default_streams',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => form(as(api.http.post('/api/v1/default_streams')), { stream_id: String(await channelFor(api, `default by ${caller}`)) }),
  },
  {
    name: 'DELETE /default_streams',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => {
      const channelId = await channelFor(api, `no longer default by ${caller}`);
      await api.as('iago').post('/api/v1/default_streams', { stream_id: channelId });
      return as(api.http.delete('/api/v1/default_streams')).query({ stream_id: channelId });
    },
  },
];

/** Code playgrounds (zerver/views/realm_playgrounds.py): administrators. */
const playgroundFor = async (api: ApiTestClient, name: string): Promise<number> =>
  (await api.as('iago').post('/api/v1/realm/playgrounds', { name, pygments_language: 'Python', url_template: 'https://play.test/?code={code}' })).body.id;
const PLAYGROUND_ROWS: Row[] = [
  {
    name: 'POST /realm/playgrounds',
    outcomes: adminsOnly(),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/realm/playgrounds')), { name: `Added by ${caller}`, pygments_language: 'Python', url_template: 'https://play.test/?code={code}' }),
  },
  {
    name: 'DELETE /realm/playgrounds/{id}',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => as(api.http.delete(`/api/v1/realm/playgrounds/${await playgroundFor(api, `Removed by ${caller}`)}`)),
  },
];

/** Invitations (zerver/views/invite.py, require_member_or_admin): someone else's invitation needs an administrator. */
const invitationFor = async (api: ApiTestClient, email: string): Promise<number> => {
  await api.as('iago').post('/api/v1/invites', { invitee_emails: email, stream_ids: '[]' });
  const invites = (await api.as('iago').get('/api/v1/invites')).body.invites as { id: number; email?: string }[];
  return invites.find((i) => i.email === email)!.id;
};
const multiuseFor = async (api: ApiTestClient): Promise<number> => {
  await api.as('iago').post('/api/v1/invites/multiuse', {});
  const invites = (await api.as('iago').get('/api/v1/invites')).body.invites as { id: number; is_multiuse: boolean }[];
  return invites.filter((i) => i.is_multiuse).at(-1)!.id;
};
const humanMembers = (outcome: Outcome = 'ok'): Partial<Record<Caller, Outcome>> => ({ ...everyone(outcome), guest: 'no_guest', bot: 'human' });
const INVITATION_ROWS: Row[] = [
  { name: 'GET /invites', outcomes: humanMembers(), send: (api, as) => as(api.http.get('/api/v1/invites')) },
  {
    name: 'POST /invites',
    outcomes: humanMembers(),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/invites')), { invitee_emails: `invited-by-${caller}@example.net`, stream_ids: '[]' }),
  },
  {
    name: 'POST /invites/multiuse',
    outcomes: { ...humanMembers('insufficient'), administrator: 'ok', owner: 'ok' },
    send: (api, as) => form(as(api.http.post('/api/v1/invites/multiuse')), {}),
  },
  {
    name: 'DELETE /invites/{id}',
    outcomes: { ...humanMembers('admin'), administrator: 'ok', owner: 'ok' },
    send: async (api, as, caller) => as(api.http.delete(`/api/v1/invites/${await invitationFor(api, `revoked-for-${caller}@example.net`)}`)),
  },
  {
    name: 'POST /invites/{id}/resend',
    outcomes: { ...humanMembers('admin'), administrator: 'ok', owner: 'ok' },
    send: async (api, as, caller) => as(api.http.post(`/api/v1/invites/${await invitationFor(api, `resent-for-${caller}@example.net`)}/resend`)),
  },
  {
    name: 'DELETE /invites/multiuse/{id}',
    outcomes: { ...humanMembers('admin'), administrator: 'ok', owner: 'ok' },
    send: async (api, as) => as(api.http.delete(`/api/v1/invites/multiuse/${await multiuseFor(api)}`)),
  },
];

const OPERATIONS_ROWS: Row[] = [
  { name: 'GET /svc/projections', outcomes: adminsOnly(), send: (api, as) => as(api.http.get('/api/v1/svc/projections')) },
  {
    name: 'POST /svc/projections/rebuild',
    outcomes: adminsOnly(),
    send: async (api, as) => {
      // One rebuild at a time: let the previous caller's finish first.
      await api.app.get(ProjectionRebuilder).settled();
      return form(as(api.http.post('/api/v1/svc/projections/rebuild')), { projection: 'drafts' });
    },
  },
  { name: 'GET /svc/history', outcomes: adminsOnly(), send: (api, as) => as(api.http.get('/api/v1/svc/history')).query({ realm: 'true' }) },
];

/** Issue #21: alert words, read receipts and the smaller endpoints clients call. */
const EVERYDAY_ROWS: Row[] = [
  { name: 'GET /users/me/alert_words', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/users/me/alert_words')) },
  {
    name: 'POST /users/me/alert_words',
    outcomes: everyone('ok'),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/users/me/alert_words')), { alert_words: JSON.stringify([`word of ${caller}`]) }),
  },
  {
    name: 'DELETE /users/me/alert_words',
    outcomes: everyone('ok'),
    send: (api, as, caller) => as(api.http.delete('/api/v1/users/me/alert_words')).query({ alert_words: JSON.stringify([`word of ${caller}`]) }),
  },
  {
    name: 'GET /messages/{id}/read_receipts',
    outcomes: { ...everyone('ok'), guest: 'invalid_message' },
    send: async (api, as, caller) => as(api.http.get(`/api/v1/messages/${await channelMessage(api, caller)}/read_receipts`)),
  },
  {
    name: 'GET /messages/matches_narrow',
    outcomes: everyone('ok'),
    send: (api, as) => as(api.http.get('/api/v1/messages/matches_narrow')).query({ msg_ids: JSON.stringify([1, 2]), narrow: JSON.stringify([]) }),
  },
  { name: 'POST /messages/render', outcomes: everyone('ok'), send: (api, as) => form(as(api.http.post('/api/v1/messages/render')), { content: '**bold**' }) },
  {
    name: 'GET /users/{id}/subscriptions/{id}',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => as(api.http.get(`/api/v1/users/${api.user('hamlet').userId}/subscriptions/${await channelFor(api, `status for ${caller}`)}`)),
  },
  {
    name: 'PATCH /users/me/subscriptions/muted_topics',
    outcomes: everyone('ok'),
    send: async (api, as, caller) => form(as(api.http.patch('/api/v1/users/me/subscriptions/muted_topics')), { stream_id: String(await channelFor(api, `muted by ${caller}`)), topic: 'quiet', op: 'add' }),
  },
  {
    name: 'POST /streams/{id}/delete_topic',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => {
      const streamId = await channelFor(api, `topic deleted by ${caller}`);
      await api.as('iago').post('/api/v1/messages', { type: 'stream', to: streamId, topic: 'doomed', content: 'bye' });
      return form(as(api.http.post(`/api/v1/streams/${streamId}/delete_topic`)), { topic_name: 'doomed' });
    },
  },
];

/**
 * Message reports: anyone who may read the message may report it (access_message), bots and
 * guests included; the guest cannot read Iago's message in a channel they are not in.
 */
const reportsEnabled = async (api: ApiTestClient): Promise<void> => {
  await api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'matrix reports' }], invite_only: true });
  const channelId = (await api.as('iago').get('/api/v1/get_stream_id', { stream: 'matrix reports' })).body.stream_id;
  await api.as('iago').patch('/api/v1/realm', { moderation_request_channel_id: channelId });
};
const MESSAGE_REPORT_ROWS: Row[] = [
  {
    name: 'POST /messages/{id}/report',
    outcomes: { ...everyone('ok'), guest: 'invalid_message' },
    send: async (api, as, caller) => {
      await reportsEnabled(api);
      return form(as(api.http.post(`/api/v1/messages/${await channelMessage(api, caller)}/report`)), { report_type: 'spam' });
    },
  },
];

/** Presence (zerver/views/presence.py): pings are for humans; reading is for every caller, bots included. */
const PRESENCE_ROWS: Row[] = [
  { name: 'POST /users/me/presence', outcomes: { ...everyone('ok'), bot: 'human' }, send: (api, as) => form(as(api.http.post('/api/v1/users/me/presence')), { status: 'active' }) },
  { name: 'GET /realm/presence', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/realm/presence')) },
  {
    name: 'GET /users/{user_id_or_email}/presence',
    outcomes: everyone('ok'),
    send: async (api, as) => {
      await api.as('hamlet').post('/api/v1/users/me/presence', { status: 'active' });
      return as(api.http.get(`/api/v1/users/${api.user('hamlet').userId}/presence`));
    },
  },
];

const ROWS: Row[] = [
  { name: 'GET /server_settings', public: true, outcomes: {}, send: (api, as) => as(api.http.get('/api/v1/server_settings')) },
  { name: 'GET /openapi.json', public: true, outcomes: {}, send: (api, as) => as(api.http.get('/api/v1/openapi.json')) },
  { name: 'POST /register', outcomes: everyone('ok'), send: (api, as) => as(api.http.post('/api/v1/register')) },
  { name: 'GET /users', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/users')) },
  { name: 'GET /users/me', outcomes: everyone('ok'), send: (api, as) => as(api.http.get('/api/v1/users/me')) },
  { name: 'GET /users/{id}', outcomes: everyone('ok'), send: (api, as) => as(api.http.get(`/api/v1/users/${api.user('hamlet').userId}`)) },
  {
    name: 'POST /users',
    outcomes: adminsOnly(),
    send: (api, as, caller) => form(as(api.http.post('/api/v1/users')), { email: `made-by-${caller}@acme.test`, password: 'long-enough', full_name: `Made By ${caller}` }),
  },
  {
    name: 'PATCH /users/{id}',
    outcomes: adminsOnly(),
    send: (api, as, caller) => form(as(api.http.patch(`/api/v1/users/${api.user('hamlet').userId}`)), { full_name: `Renamed by ${caller}` }),
  },
  {
    name: 'DELETE /users/{id}',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => {
      const { user_id } = (await api.as('iago').post('/api/v1/users', { email: `victim-${caller}@acme.test`, password: 'long-enough', full_name: `Victim ${caller}` })).body;
      return as(api.http.delete(`/api/v1/users/${user_id}`));
    },
  },
  {
    name: 'POST /users/{id}/reactivate',
    outcomes: adminsOnly(),
    send: async (api, as, caller) => {
      const { user_id } = (await api.as('iago').post('/api/v1/users', { email: `revived-${caller}@acme.test`, password: 'long-enough', full_name: `Revived ${caller}` })).body;
      await api.as('iago').delete(`/api/v1/users/${user_id}`);
      return as(api.http.post(`/api/v1/users/${user_id}/reactivate`));
    },
  },
  {
    name: 'POST /bots',
    outcomes: { ...everyone('ok'), guest: 'no_guest', bot: 'human' },
    send: (api, as, caller) => form(as(api.http.post('/api/v1/bots')), { full_name: `Bot of ${caller}`, short_name: `b-${caller}` }),
  },
  { name: 'GET /bots', outcomes: { ...everyone('ok'), bot: 'human' }, send: (api, as) => as(api.http.get('/api/v1/bots')) },
  ...CHANNEL_ROWS,
  ...PERSONAL_DATA_ROWS,
  ...SETTINGS_ROWS,
  ...ADMINISTRATION_ROWS,
  ...REALM_SETTINGS_ROWS,
  ...MESSAGE_FLAGS_ROWS,
  ...SWEEP_ROWS,
  ...MESSAGE_EDIT_ROWS,
  ...REACTION_ROWS,
  ...SUBMESSAGE_ROWS,
  ...EVENT_ROWS,
  ...UPLOAD_ROWS,
  ...OPERATIONS_ROWS,
  ...LINKIFIER_ROWS,
  ...DEFAULT_CHANNEL_ROWS,
  ...PLAYGROUND_ROWS,
  ...INVITATION_ROWS,
  ...EVERYDAY_ROWS,
  ...PRESENCE_ROWS,
  ...USER_GROUP_ROWS,
  ...MESSAGE_REPORT_ROWS,
];

/** Routes without a row, each with the reason (shape: method and path with {} for path parameters). */
const NOT_IN_MATRIX = new Map<string, string>([
  ['POST /fetch_api_key', 'takes a user name and password instead of an API key (test/api/authentication.api-spec.ts)'],
  ['POST /dev_fetch_api_key', 'development only, takes an email instead of an API key (test/api/authentication.api-spec.ts)'],
  ['GET /dev_list_users', 'development only, public (test/api/authentication.api-spec.ts)'],
  ['POST /tus', 'the tus protocol answers in its own shapes (201, 204, headers): credentials and ownership in test/api/tus.api-spec.ts'],
  ['HEAD /tus/{}', 'the tus protocol (test/api/tus.api-spec.ts)'],
  ['PATCH /tus/{}', 'the tus protocol (test/api/tus.api-spec.ts)'],
  ['DELETE /tus/{}', 'the tus protocol (test/api/tus.api-spec.ts)'],
]);

const EXPECTED_MESSAGE: Record<Exclude<Outcome, 'ok' | 401>, string> = {
  admin: 'Must be an organization administrator',
  owner: 'Must be an organization owner',
  human: 'This endpoint does not accept bot requests.',
  no_guest: 'Not allowed for guest users',
  no_channel: 'Invalid channel ID',
  not_channel_admin: 'You do not have permission to administer this channel.',
  bot_only: 'Must be a bot user',
  insufficient: 'Insufficient permission',
  not_emoji_author: 'Must be an organization administrator or emoji author',
  no_push: 'Server is not configured to use push notification service.',
  invalid_device: 'Invalid `device_id`',
  invalid_message: 'Invalid message(s)',
  only_owner: 'Cannot deactivate the only organization owner.',
  invalid_attachment: 'Invalid attachment',
  no_edit: "You don't have permission to edit this message",
  no_delete: "You don't have permission to delete this message",
};

describe('authorization matrix', () => {
  let api: ApiTestClient;
  const credentials = new Map<Caller, { email: string; apiKey: string }>();
  beforeAll(async () => {
    api = await ApiTestClient.start();
    const bus = api.app.get(CommandBus);
    const actor = operatorActor(api.realmId);
    const bot = await bus.execute(new CreateBotCommand({ actor }, { fullName: 'Matrix Bot', shortName: 'matrix', ownerId: api.user('hamlet').userId }));
    api.credentials.set('bot', { userId: bot.userId, email: bot.email, apiKey: bot.apiKey });
    await bus.execute(new DeactivateUserCommand({ actor }, api.user('cordelia').userId));
    for (const caller of CALLERS) {
      const persona = PERSONA[caller];
      if (persona) credentials.set(caller, api.user(persona));
    }
    credentials.set('bad_key', { email: api.user('hamlet').email, apiKey: 'Z'.repeat(32) });
  });
  afterAll(() => api.close());
  it('has a row for every /api/v1 route', () => {
    const shape = (name: string) => name.replace(/ \(.*\)$/, '').replace(/\/api\/v1/, '').replace(/\{[^}]*\}|:[A-Za-z_]+/g, '{}');
    const covered = new Set(ROWS.map((row) => shape(row.name)));
    const missing = listApiRoutes(api.app)
      .map((route) => shape(`${route.method} ${route.path}`))
      .filter((name) => !covered.has(name) && !NOT_IN_MATRIX.has(name));
    expect(missing).toEqual([]);
  });
  const cases = ROWS.flatMap((row) => CALLERS.map((caller) => [row.name, caller, row] as const));
  it.each(cases)('%s as %s', async (_name, caller, row) => {
    const as = (req: ReturnType<ApiTestClient['http']['get']>) => {
      const c = credentials.get(caller);
      return c ? req.auth(c.email, c.apiKey) : req;
    };
    const response = await row.send(api, as, caller);
    const outcome: Outcome = row.public ? 'ok' : (row.outcomes[caller] ?? 401);
    if (outcome === 'ok') {
      expect({ status: response.status, result: response.body.result ?? 'document' }).toEqual({ status: 200, result: response.body.result ? 'success' : 'document' });
    } else if (outcome === 401) {
      expect({ status: response.status, result: response.body.result, code: response.body.code }).toEqual({ status: 401, result: 'error', code: 'UNAUTHORIZED' });
    } else {
      expect({ status: response.status, msg: response.body.msg }).toEqual({ status: 400, msg: EXPECTED_MESSAGE[outcome] });
    }
  });
});
