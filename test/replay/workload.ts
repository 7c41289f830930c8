import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import {
  ChangeBotOwnerCommand,
  ChangeUserEmailCommand,
  DeactivateRealmCommand,
  ReactivateRealmCommand,
  RegenerateApiKeyCommand,
  SCHEDULER,
} from '@app/application';
import { operatorActor } from '@app/domain';
import { OTHER_PUSH_KEY, PUSH_KEY, seededRandom, TINY_PNG, tokenIdOf, personaHelpers } from '@app/testing';
import { type ApiTestClient } from '../support';
import type request from 'supertest';

/**
 * Generated workloads for the replay suites: one that drives every kind of change the product
 * records (so that its log holds every event type), and a random one (seeded) of the everyday
 * mix — sends, edits, moves, deletions, flags, drafts, settings. Everything goes through the HTTP
 * API as clients would, except what only operators can do (the CLI's commands).
 */

/** Every event type the domain declares (libs/domain/src/**\/*.events.ts and the flags decider). */
export function declaredEventTypes(): string[] {
  const root = join(__dirname, '../../libs/domain/src');
  const types = new Set<string>();
  for (const area of readdirSync(root)) {
    let files: string[];
    try {
      files = readdirSync(join(root, area));
    } catch {
      continue;
    }
    for (const file of files.filter((f) => f.endsWith('.events.ts') || f === 'message-flags.decider.ts')) {
      const text = readFileSync(join(root, area, file), 'utf8');
      // Decider files also declare commands (imperative names); events are past tense.
      for (const match of text.matchAll(/\btype: '([A-Z][A-Za-z]+)';/g)) {
        if (file.endsWith('.events.ts') || /(ed|Set)$/.test(match[1])) types.add(match[1]);
      }
    }
  }
  return [...types].sort();
}

/** A small deterministic PRNG (mulberry32) with the draws the workload uses. */
export function seeded(seed: number) {
  const next = seededRandom(seed);
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}

const ok = async (what: string, response: request.Response | Promise<request.Response>, tolerated: string[] = []) => {
  const r = await response;
  // A refusal the random mix may run into (an edit after the time limit): the workload goes on.
  if (r.status === 400 && (tolerated.includes(r.body?.msg) || (tolerated.length > 0 && /time limit/.test(r.body?.msg)))) return r.body as Record<string, any>;
  if (r.status !== 200 || r.body?.result !== 'success') throw new Error(`workload step "${what}" failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Record<string, any>;
};

const channelId = async (api: ApiTestClient, name: string): Promise<number> => {
  const streams = (await ok('list channels', api.as('iago').get('/api/v1/streams', { include_all: true }))).streams as { name: string; stream_id: number }[];
  return streams.find((s) => s.name === name)!.stream_id;
};

/** Drives every kind of change once or more; the log then holds every declared event type. */
const expectLink = (link: string) => {
  if (!/\/join\/[a-z0-9]{24}\/$/.test(link)) throw new Error(`not an invitation link: ${link}`);
};

export async function coverageWorkload(api: ApiTestClient): Promise<void> {
  const { id } = personaHelpers(() => api);
  const bus = api.app.get(CommandBus);
  const now = () => Math.floor(api.clock.now().getTime() / 1000);
  const asOwner = { actor: { realmId: api.realmId, userId: id('desdemona'), role: 'owner' as const, isBot: false } };

  // Channels, subscriptions, folders.
  await ok('subscribe', api.as('hamlet').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }, { name: 'Verona' }], principals: [id('hamlet'), id('cordelia'), id('iago')] }));
  const denmark = await channelId(api, 'Denmark');
  const verona = await channelId(api, 'Verona');
  await ok('channel description', api.as('iago').patch(`/api/v1/streams/${verona}`, { description: 'Fair Verona' }));
  await ok('channel rename', api.as('iago').patch(`/api/v1/streams/${verona}`, { new_name: 'Verona2' }));
  await ok('channel privacy', api.as('iago').patch(`/api/v1/streams/${verona}`, { is_private: true }));
  const folder = (await ok('folder', api.as('iago').post('/api/v1/channel_folders/create', { name: 'Places', description: '' }))).channel_folder_id as number;
  const folder2 = (await ok('folder 2', api.as('iago').post('/api/v1/channel_folders/create', { name: 'Other', description: '' }))).channel_folder_id as number;
  await ok('folder rename', api.as('iago').patch(`/api/v1/channel_folders/${folder}`, { name: 'Cities', description: 'Where things happen' }));
  await ok('folder order', api.as('iago').patch('/api/v1/channel_folders', { order: [folder2, folder] }));
  await ok('channel folder', api.as('iago').patch(`/api/v1/streams/${denmark}`, { folder_id: folder }));
  await ok('channel topics policy', api.as('iago').patch(`/api/v1/streams/${denmark}`, { topics_policy: 'allow_empty_topic' }));
  await ok('channel retention', api.as('desdemona').patch(`/api/v1/streams/${denmark}`, { message_retention_days: 3650 }));
  await ok('default channel', api.as('iago').post('/api/v1/default_streams', { stream_id: denmark }));
  await ok('no longer default', api.as('iago').delete('/api/v1/default_streams').query({ stream_id: denmark }));
  await ok('folder archive', api.as('iago').patch(`/api/v1/channel_folders/${folder2}`, { is_archived: true }));
  await ok('folder unarchive', api.as('iago').patch(`/api/v1/channel_folders/${folder2}`, { is_archived: false }));
  await ok('subscription property', api.as('hamlet').patch(`/api/v1/users/me/subscriptions/${denmark}`, { property: 'color', value: '#abcdef' }));
  await ok('unsubscribe', api.as('cordelia').delete('/api/v1/users/me/subscriptions', { subscriptions: ['Denmark'] }));
  await ok('resubscribe', api.as('cordelia').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] }));
  await ok('archive channel', api.as('iago').delete(`/api/v1/streams/${verona}`));
  await ok('unarchive channel', api.as('iago').patch(`/api/v1/streams/${verona}`, { is_archived: false }));

  // Messages: send, edit, move, delete, flags, topic visibility.
  const send = async (who: string, content: string, topic = 'plans') =>
    (await ok('send', api.as(who).post('/api/v1/messages', { type: 'stream', to: 'Denmark', topic, content }))).id as number;
  const first = await send('hamlet', 'To be, or not to be');
  const second = await send('cordelia', 'Nothing will come of nothing @**King Hamlet**');
  const dm = (await ok('direct message', api.as('hamlet').post('/api/v1/messages', { type: 'direct', to: JSON.stringify([id('cordelia')]), content: 'psst' }))).id as number;
  await ok('edit', api.as('hamlet').patch(`/api/v1/messages/${first}`, { content: 'To be, or not to be: that is the question' }));
  await ok('move', api.as('hamlet').patch(`/api/v1/messages/${first}`, { topic: 'soliloquy', propagate_mode: 'change_one' }));
  await ok('flags', api.as('hamlet').post('/api/v1/messages/flags', { messages: JSON.stringify([second, dm]), op: 'add', flag: 'starred' }));
  await ok('read', api.as('cordelia').post('/api/v1/messages/flags', { messages: JSON.stringify([first]), op: 'add', flag: 'read' }));
  await ok('user topic', api.as('hamlet').post('/api/v1/user_topics', { stream_id: denmark, topic: 'plans', visibility_policy: 1 }));
  // Reactions: added (a vote under the first name too), removed; a reaction on a message deleted later.
  // Cordelia follows topics on participation (1) until after the widgets: her reaction and her vote follow their topics.
  await ok('follow on participation', api.as('cordelia').patch('/api/v1/settings', { automatically_follow_topics_policy: 1 }));
  await ok('react', api.as('cordelia').post(`/api/v1/messages/${first}/reactions`, { emoji_name: 'octopus' }));
  await ok('vote', api.as('hamlet').post(`/api/v1/messages/${first}/reactions`, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' }));
  await ok('react in a DM', api.as('cordelia').post(`/api/v1/messages/${dm}/reactions`, { emoji_name: 'zulip' }));
  await ok('unreact', api.as('hamlet').delete(`/api/v1/messages/${first}/reactions`, { emoji_code: '1f419' }));
  await ok('react (administrator)', api.as('iago').post(`/api/v1/messages/${second}/reactions`, { emoji_name: 'car' }));
  // Widgets: a poll (its widget submessage is part of the send), a vote, a new option; a to-do list and a task.
  const poll = await send('hamlet', '/poll Where to?\nElsinore\nWittenberg', 'widgets');
  await ok('vote on a poll', api.as('cordelia').post('/api/v1/submessage', { message_id: poll, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }));
  await ok('add a poll option', api.as('iago').post('/api/v1/submessage', { message_id: poll, msg_type: 'widget', content: JSON.stringify({ type: 'new_option', idx: 1, option: 'Norway' }) }));
  const todo = await send('hamlet', '/todo Revenge\nRehearse the play: tonight', 'widgets');
  await ok('add a task', api.as('cordelia').post('/api/v1/submessage', { message_id: todo, msg_type: 'widget', content: JSON.stringify({ type: 'new_task', key: 2, task: 'Pack', desc: '', completed: false }) }));
  await ok('follow on initiation', api.as('cordelia').patch('/api/v1/settings', { automatically_follow_topics_policy: 3 }));
  const doomed = await send('hamlet', 'delete me');
  await ok('react before deletion', api.as('cordelia').post(`/api/v1/messages/${doomed}/reactions`, { emoji_name: 'car' }));
  await ok('delete message', api.as('iago').delete(`/api/v1/messages/${doomed}`));

  // Scheduled messages: created, edited, deleted, delivered, failed.
  const schedule = async (to: number, content: string) =>
    (await ok('schedule', api.as('hamlet').post('/api/v1/scheduled_messages', { type: 'channel', to, topic: 'later', content, scheduled_delivery_timestamp: now() + 300 }))).scheduled_message_id as number;
  const later = await schedule(denmark, 'later');
  await ok('edit scheduled', api.as('hamlet').patch(`/api/v1/scheduled_messages/${later}`, { content: 'a bit later' }));
  const dropped = await schedule(denmark, 'never');
  await ok('delete scheduled', api.as('hamlet').delete(`/api/v1/scheduled_messages/${dropped}`));
  const failing = await schedule(verona, 'to a channel about to be archived');
  await ok('archive for failure', api.as('iago').delete(`/api/v1/streams/${verona}`));
  api.clock.advance(301_000);
  await (api.app.get(SCHEDULER) as unknown as { runDue(): Promise<void> }).runDue();
  void failing;

  // Drafts, snippets, muting, status, settings.
  const drafts = (await ok('drafts', api.as('hamlet').post('/api/v1/drafts', { drafts: [{ type: 'stream', to: [denmark], topic: 'd', content: 'draft', timestamp: now() }] }))).ids as number[];
  await ok('edit draft', api.as('hamlet').patch(`/api/v1/drafts/${drafts[0]}`, { draft: { type: 'stream', to: [denmark], topic: 'd', content: 'draft 2', timestamp: now() } }));
  await ok('delete draft', api.as('hamlet').delete(`/api/v1/drafts/${drafts[0]}`));
  const snippet = (await ok('snippet', api.as('hamlet').post('/api/v1/saved_snippets', { title: 'Hi', content: 'Hello there' }))).saved_snippet_id as number;
  await ok('edit snippet', api.as('hamlet').patch(`/api/v1/saved_snippets/${snippet}`, { title: 'Hello' }));
  await ok('delete snippet', api.as('hamlet').delete(`/api/v1/saved_snippets/${snippet}`));
  await ok('mute', api.as('hamlet').post(`/api/v1/users/me/muted_users/${id('polonius')}`));
  await ok('unmute', api.as('hamlet').delete(`/api/v1/users/me/muted_users/${id('polonius')}`));
  await ok('alert words', api.as('hamlet').post('/api/v1/users/me/alert_words', { alert_words: ['question', 'Denmark'] }));
  await ok('alerted', api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'a question for you' }));
  await ok('remove alert word', api.as('hamlet').delete('/api/v1/users/me/alert_words', { alert_words: ['denmark'] }));
  await ok('read receipts off', api.as('iago').patch('/api/v1/realm', { enable_read_receipts: false }));
  await ok('status', api.as('hamlet').post('/api/v1/users/me/status', { status_text: 'reading', emoji_name: 'book' }));
  await ok('setting', api.as('hamlet').patch('/api/v1/settings', { color_scheme: 2, full_name: 'Prince Hamlet' }));
  await ok('password', api.as('cordelia').patch('/api/v1/settings', { old_password: 'cordelia-password', new_password: 'a-new-long-password' }));
  await ok('email change', api.as('cordelia').patch('/api/v1/settings', { email: 'cordelia2@acme.test' }));
  // The confirmation key is only in the mail to the new address (never in the log).
  const confirmed = await api.http.get(`/accounts/confirm_new_email/${await api.emailChangeKey('cordelia2@acme.test')}/`);
  if (confirmed.status !== 200) throw new Error(`email confirmation failed: ${confirmed.status}`);
  api.credentials.set('cordelia', { ...api.user('cordelia'), email: 'cordelia2@acme.test' });

  // Custom profile fields.
  const field = (await ok('profile field', api.as('iago').post('/api/v1/realm/profile_fields', { name: 'Phone', field_type: 1 }))).id as number;
  const field2 = (await ok('profile field 2', api.as('iago').post('/api/v1/realm/profile_fields', { name: 'Team', field_type: 1 }))).id as number;
  await ok('edit profile field', api.as('iago').patch(`/api/v1/realm/profile_fields/${field}`, { name: 'Telephone' }));
  await ok('order profile fields', api.as('iago').patch('/api/v1/realm/profile_fields', { order: [field2, field] }));
  await ok('profile value', api.as('hamlet').patch('/api/v1/users/me/profile_data', { data: [{ id: field, value: '555' }] }));
  await ok('remove profile value', api.as('hamlet').delete('/api/v1/users/me/profile_data', { data: [field] }));
  await ok('delete profile field', api.as('iago').delete(`/api/v1/realm/profile_fields/${field2}`));

  // Linkifiers.
  const linkifier = (await ok('linkifier', api.as('iago').post('/api/v1/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.test/{id}' }))).id as number;
  const linkifier2 = (await ok('linkifier 2', api.as('iago').post('/api/v1/realm/filters', { pattern: 'PR(?P<id>[0-9]+)', url_template: 'https://code.test/{id}' }))).id as number;
  await ok('edit linkifier', api.as('iago').patch(`/api/v1/realm/filters/${linkifier}`, { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.test/issues/{id}' }));
  await ok('order linkifiers', api.as('iago').patch('/api/v1/realm/linkifiers', { ordered_linkifier_ids: [linkifier2, linkifier] }));
  await ok('delete linkifier', api.as('iago').delete(`/api/v1/realm/filters/${linkifier2}`));

  // Code playgrounds.
  const playground = (await ok('playground', api.as('iago').post('/api/v1/realm/playgrounds', { name: 'Python', pygments_language: 'Python', url_template: 'https://play.test/?code={code}' }))).id as number;
  await ok('playground 2', api.as('iago').post('/api/v1/realm/playgrounds', { name: 'Rust', pygments_language: 'Rust', url_template: 'https://play.rust.test/?code={code}' }));
  await ok('delete playground', api.as('iago').delete(`/api/v1/realm/playgrounds/${playground}`));

  // Invitations: email (created, resent, revoked, accepted on the sign-up page) and multiuse links.
  await ok('invite', api.as('iago').post('/api/v1/invites', { invitee_emails: 'invited@example.net, revoked@example.net', stream_ids: '[]' }));
  const invites = (await ok('invites', api.as('iago').get('/api/v1/invites'))).invites as { id: number; email: string }[];
  await ok('resend invite', api.as('iago').post(`/api/v1/invites/${invites[0].id}/resend`));
  await ok('revoke invite', api.as('iago').delete(`/api/v1/invites/${invites.find((i) => i.email === 'revoked@example.net')!.id}`));
  const invitationKey = /\/join\/([a-z0-9]+)\//.exec((await api.mailsTo('invited@example.net', { kind: 'invitation', count: 2 })).at(-1)!.text)![1];
  const signUp = await api.http.post(`/join/${invitationKey}/`).type('form').send({ full_name: 'Invited Person', password: 'a long enough password' });
  if (signUp.status !== 200) throw new Error(`workload step "sign up" failed: ${signUp.status}`);
  const multiuse = (await ok('multiuse invite', api.as('iago').post('/api/v1/invites/multiuse', {}))).invite_link as string;
  expectLink(multiuse);
  const multiuseId = ((await ok('invites again', api.as('iago').get('/api/v1/invites'))).invites as { id: number; is_multiuse: boolean }[]).find((i) => i.is_multiuse)!.id;
  await ok('revoke multiuse invite', api.as('iago').delete(`/api/v1/invites/multiuse/${multiuseId}`));

  // Custom emoji and uploads (blobs).
  const { email, apiKey } = api.user('hamlet');
  await ok('emoji', api.http.post('/api/v1/realm/emoji/party').auth(email, apiKey).attach('f1', TINY_PNG, 'party.png'));
  await ok('remove emoji', api.as('hamlet').delete('/api/v1/realm/emoji/party'));
  await ok('upload', api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file', Buffer.from('hello'), 'hello.txt'));
  await ok('upload 2', api.http.post('/api/v1/user_uploads').auth(email, apiKey).attach('file', Buffer.from('bye'), 'bye.txt'));
  const attachments = (await ok('attachments', api.as('hamlet').get('/api/v1/attachments'))).attachments as { id: number }[];
  await ok('delete upload', api.as('hamlet').delete(`/api/v1/attachments/${attachments[0].id}`));

  // Push devices.
  await ok('gcm token', api.as('hamlet').post('/api/v1/users/me/android_gcm_reg_id', { token: 'android-token' }));
  await ok('remove gcm token', api.as('hamlet').delete('/api/v1/users/me/android_gcm_reg_id', { token: 'android-token' }));
  // (The app must be started with a push service: `config: { pushNotificationsBouncerUrl }`.)
  const token = (t: string) => ({ token_kind: 'fcm', token_id: tokenIdOf(t), bouncer_public_key: 'bouncer-public-key', encrypted_push_registration: 'encrypted-push-registration-data' });
  const deviceId = (await ok('client device', api.as('hamlet').post('/api/v1/register_client_device'))).device_id as number;
  await ok('push register', api.as('hamlet').post('/api/v1/mobile_push/register', { device_id: deviceId, push_key: PUSH_KEY, push_key_id: 2408, ...token('fcm-token') }));
  await ok('push key rotation', api.as('hamlet').post('/api/v1/mobile_push/register', { device_id: deviceId, push_key: OTHER_PUSH_KEY, push_key_id: 1144 }));
  await ok('push token rotation', api.as('hamlet').post('/api/v1/mobile_push/register', { device_id: deviceId, ...token('new-token') }));
  const loggedOut = (await ok('second client device', api.as('hamlet').post('/api/v1/register_client_device'))).device_id as number;
  await ok('remove client device', api.as('hamlet').post('/api/v1/remove_client_device', { device_id: loggedOut }));

  // Users and bots.
  const created = (await ok('create user', api.as('iago').post('/api/v1/users', { email: 'newbie@acme.test', password: 'long-enough', full_name: 'New Bie' }))).user_id as number;
  await ok('role', api.as('desdemona').patch(`/api/v1/users/${created}`, { role: 300 }));
  await ok('deactivate', api.as('iago').delete(`/api/v1/users/${created}`));
  await ok('reactivate', api.as('iago').post(`/api/v1/users/${created}/reactivate`));
  const bot = await ok('bot', api.as('hamlet').postMultipart('/api/v1/bots', { full_name: 'Deploy Bot', short_name: 'deploy' }));
  const botEmail = (await ok('bot user', api.as('hamlet').get(`/api/v1/users/${bot.user_id}`))).user.email as string;
  api.credentials.set('deploy-bot', { userId: bot.user_id as number, email: botEmail, apiKey: bot.api_key as string });
  await ok('bot storage', api.as('deploy-bot').put('/api/v1/bot_storage', { storage: { a: '1', b: '2' } }));
  await ok('bot storage removal', api.as('deploy-bot').delete('/api/v1/bot_storage', { keys: ['a'] }));
  await bus.execute(new ChangeBotOwnerCommand(asOwner, bot.user_id as number, id('cordelia')));
  await bus.execute(new RegenerateApiKeyCommand({ actor: operatorActor(api.realmId) }, created));
  await bus.execute(new ChangeUserEmailCommand(asOwner, created, 'renamed@acme.test'));

  // User groups: create, update, members, subgroups, a group mention, deactivation and reactivation.
  const support = (await ok('user group', api.as('hamlet').post('/api/v1/user_groups/create', { name: 'support', description: 'Support', members: [id('hamlet')] }))).group_id as number;
  const leads = (await ok('user group 2', api.as('hamlet').post('/api/v1/user_groups/create', { name: 'leads', description: '', members: [id('iago')] }))).group_id as number;
  await ok('user group update', api.as('hamlet').patch(`/api/v1/user_groups/${support}`, { name: 'helpers', description: 'Helping', can_mention_group: { new: leads } }));
  await ok('user group members', api.as('hamlet').post(`/api/v1/user_groups/${support}/members`, { add: [id('cordelia')], delete: [id('hamlet')] }));
  await ok('user group subgroups', api.as('hamlet').post(`/api/v1/user_groups/${support}/subgroups`, { add: [leads] }));
  await ok('user group mention', api.as('iago').post('/api/v1/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'hey @*helpers*' }));
  await ok('user group subgroups removal', api.as('hamlet').post(`/api/v1/user_groups/${support}/subgroups`, { delete: [leads] }));
  await ok('user group setting back', api.as('hamlet').patch(`/api/v1/user_groups/${support}`, { can_mention_group: { new: (api.realmId - 1) * 8 + 6 } }));
  await ok('user group deactivation', api.as('hamlet').post(`/api/v1/user_groups/${leads}/deactivate`));
  await ok('user group reactivation', api.as('hamlet').patch(`/api/v1/user_groups/${leads}`, { deactivated: false }));

  // The organization.
  await ok('realm property', api.as('iago').patch('/api/v1/realm', { name: 'Acme Worldwide' }));
  await ok('realm group setting', api.as('iago').patch('/api/v1/realm', { can_resolve_topics_group: { new: (api.realmId - 1) * 8 + 5 } }));
  // Message reports: Notification Bot posts to the (private) moderation request channel and confirms by DM.
  await ok('moderators channel', api.as('iago').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'moderators' }], invite_only: true }));
  await ok('moderation request channel', api.as('iago').patch('/api/v1/realm', { moderation_request_channel_id: await channelId(api, 'moderators') }));
  const reported = (await ok('reported message', api.as('cordelia').post('/api/v1/messages', { type: 'stream', to: 'Denmark', topic: 'plans', content: 'buy now!' }))).id as number;
  await ok('report', api.as('hamlet').post(`/api/v1/messages/${reported}/report`, { report_type: 'spam', description: 'an advert' }));
  await bus.execute(new DeactivateRealmCommand({ actor: operatorActor(api.realmId) }));
  await bus.execute(new ReactivateRealmCommand({ actor: operatorActor(api.realmId) }));
}

/** A random mix of everyday changes (seeded, so a failure can be replayed). */
export async function randomWorkload(api: ApiTestClient, seed: number, operations: number): Promise<void> {
  const random = seeded(seed);
  const people = ['hamlet', 'cordelia', 'iago', 'shiva', 'desdemona'];
  await ok('subscribe', api.as('hamlet').post('/api/v1/users/me/subscriptions', {
    subscriptions: [{ name: 'random' }], principals: people.map((p) => api.user(p).userId),
  }));
  const channel = await channelId(api, 'random');
  const sent: { id: number; sender: string }[] = [];
  const topics = ['a', 'b', 'c'];
  const reacted = new Set<string>();
  for (let i = 0; i < operations; i++) {
    const who = random.pick(people);
    const dice = random.next();
    if (sent.length < 3 || dice < 0.4) {
      const id = (await ok('send', api.as(who).post('/api/v1/messages', { type: 'stream', to: channel, topic: random.pick(topics), content: `message ${i} from ${who}` }))).id as number;
      sent.push({ id, sender: who });
    } else if (dice < 0.55) {
      const m = random.pick(sent);
      await ok('edit', api.as(m.sender).patch(`/api/v1/messages/${m.id}`, { content: `edited ${i} ${random.int(1e6)}` }), ['Nothing to change']);
    } else if (dice < 0.62) {
      const m = random.pick(sent);
      await ok('move', api.as('iago').patch(`/api/v1/messages/${m.id}`, { topic: random.pick(topics), propagate_mode: random.pick(['change_one', 'change_later', 'change_all']) }), ['Nothing to change']);
    } else if (dice < 0.8) {
      const ids = Array.from({ length: 1 + random.int(3) }, () => random.pick(sent).id);
      await ok('flags', api.as(who).post('/api/v1/messages/flags', { messages: JSON.stringify([...new Set(ids)]), op: random.pick(['add', 'remove']), flag: random.pick(['read', 'starred']) }));
    } else if (dice < 0.85) {
      await ok('narrow flags', api.as(who).post('/api/v1/messages/flags/narrow', {
        anchor: 'oldest', num_before: 0, num_after: 50, narrow: JSON.stringify([{ operator: 'topic', operand: random.pick(topics) }]), op: 'add', flag: 'read',
      }));
    } else if (dice < 0.9 && sent.length > 5) {
      const index = random.int(sent.length);
      const [m] = sent.splice(index, 1);
      await ok('delete', api.as('iago').delete(`/api/v1/messages/${m.id}`));
    } else if (dice < 0.92) {
      const m = random.pick(sent);
      const emoji = random.pick(['octopus', 'car', 'zulip']);
      const key = `${m.id} ${who} ${emoji}`;
      if (reacted.delete(key)) await ok('unreact', api.as(who).delete(`/api/v1/messages/${m.id}/reactions`, { emoji_name: emoji }));
      else {
        await ok('react', api.as(who).post(`/api/v1/messages/${m.id}/reactions`, { emoji_name: emoji }));
        reacted.add(key);
      }
    } else if (dice < 0.95) {
      await ok('status', api.as(who).post('/api/v1/users/me/status', { status_text: `busy ${i}` }));
    } else {
      await ok('setting', api.as(who).patch('/api/v1/settings', { color_scheme: 1 + random.int(3) }));
    }
    if (random.next() < 0.05) api.clock.advance(60_000);
  }
}
