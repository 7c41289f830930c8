import { deciderSpec } from '@app/testing';
import {
  DeliveryTimeNotInFutureError,
  ScheduledMessageAlreadySentError,
  ScheduledMessageDoesNotExistError,
} from './scheduled-messages.errors';
import { type ScheduledMessageCommand, scheduledMessageDecider } from './scheduled-messages.decider';
import type { ScheduledMessageBody, ScheduledMessageEvent } from './scheduled-messages.events';
import { failedScheduledMessageNotice } from './scheduled-messages.notification';

const given = deciderSpec(scheduledMessageDecider);
const HAMLET = 10;
const OTHELLO = 11;
const NOW = '2026-01-01T00:00:00.000Z';
const NOW_S = Date.parse(NOW) / 1000;
const at = (seconds: number) => new Date((NOW_S + seconds) * 1000).toISOString();

const body = (overrides: Partial<ScheduledMessageBody> = {}): ScheduledMessageBody => ({
  recipient: { type: 'stream', streamId: 3, topic: 'Test topic' },
  content: 'Test message',
  renderedContent: '<p>Test message</p>',
  deliverAt: NOW_S + 300,
  client: 'website',
  ...overrides,
});
const header = { scheduledMessageId: 7, realmId: 1, senderId: HAMLET };
const created = (overrides: Partial<ScheduledMessageBody> = {}): ScheduledMessageEvent => ({
  type: 'ScheduledMessageCreated',
  data: { ...header, ...body(overrides), readBySender: true, at: NOW },
});
const claimed = (messageId = 100): ScheduledMessageEvent => ({
  type: 'ScheduledMessageDeliveryClaimed',
  data: { ...header, messageId, deliverAt: NOW_S + 300, at: at(301) },
});
const delivered = (messageId = 100): ScheduledMessageEvent => ({ type: 'ScheduledMessageDelivered', data: { ...header, messageId, at: at(301) } });
const failed = (failureMessage = 'Message could not be sent at the scheduled time.'): ScheduledMessageEvent => ({
  type: 'ScheduledMessageDeliveryFailed',
  data: { ...header, failureMessage, notifySender: true, deliverAt: NOW_S + 300, at: at(1000) },
});
const schedule = (overrides: Partial<ScheduledMessageBody> = {}, now = NOW): ScheduledMessageCommand => ({
  type: 'ScheduleMessage',
  data: { scheduledMessageId: 7, realmId: 1, senderId: HAMLET, readBySender: true, ...body(overrides), now },
});
const edit = (b: ScheduledMessageBody, options: { deliverAtGiven?: boolean; senderId?: number; now?: string } = {}): ScheduledMessageCommand => ({
  type: 'EditScheduledMessage',
  data: { scheduledMessageId: 7, senderId: options.senderId ?? HAMLET, body: b, deliverAtGiven: options.deliverAtGiven ?? false, now: options.now ?? NOW },
});
const remove = (senderId = HAMLET): ScheduledMessageCommand => ({ type: 'DeleteScheduledMessage', data: { scheduledMessageId: 7, senderId, now: NOW } });
const claim = (messageId = 100, now = at(301)): ScheduledMessageCommand => ({ type: 'ClaimDelivery', data: { scheduledMessageId: 7, messageId, now } });
const confirm = (messageId = 100): ScheduledMessageCommand => ({ type: 'ConfirmDelivery', data: { scheduledMessageId: 7, messageId, now: at(301) } });
const fail = (now = at(1000)): ScheduledMessageCommand => ({
  type: 'FailDelivery',
  data: { scheduledMessageId: 7, failureMessage: 'Message could not be sent at the scheduled time.', notifySender: true, now },
});

describe('scheduled messages decider', () => {
  describe('schedule', () => {
    it('creates the scheduled message with its body', () => given([]).when(schedule()).then([created()]));
    it('refuses a time that is not in the future', () => {
      given([]).when(schedule({ deliverAt: NOW_S })).thenThrows(DeliveryTimeNotInFutureError, 'Scheduled delivery time must be in the future.');
      given([]).when(schedule({ deliverAt: NOW_S - 86400 })).thenThrows(DeliveryTimeNotInFutureError);
    });
  });

  describe('edit', () => {
    it('records old and new bodies', () =>
      given([created()])
        .when(edit(body({ content: 'Edited', renderedContent: '<p>Edited</p>' })))
        .thenMatches([{ type: 'ScheduledMessageEdited', data: { old: { content: 'Test message' }, new: { content: 'Edited' }, wasFailed: false } }]));
    it('an edit that changes nothing appends nothing', () => given([created()]).when(edit(body())).thenNothingHappened());
    it("refuses another user's message as not existing", () =>
      given([created()]).when(edit(body(), { senderId: OTHELLO })).thenThrows(ScheduledMessageDoesNotExistError, 'Scheduled message does not exist'));
    it('refuses a deleted message', () => given([created(), { type: 'ScheduledMessageDeleted', data: { ...header, at: NOW } }]).when(edit(body())).thenThrows(ScheduledMessageDoesNotExistError));
    it('refuses once sent (and once claimed)', () => {
      given([created(), claimed(), delivered()]).when(edit(body({ content: 'x' }))).thenThrows(ScheduledMessageAlreadySentError, 'Scheduled message was already sent');
      given([created(), claimed()]).when(edit(body({ content: 'x' }))).thenThrows(ScheduledMessageAlreadySentError);
    });
    it('refuses a new time in the past', () =>
      given([created()]).when(edit(body({ deliverAt: NOW_S - 1 }), { deliverAtGiven: true })).thenThrows(DeliveryTimeNotInFutureError));
    it('a failed message needs a new time, and an edit with one revives it', () => {
      given([created(), failed()]).when(edit(body({ content: 'x' }), { now: at(1001) })).thenThrows(DeliveryTimeNotInFutureError);
      given([created(), failed()])
        .when(edit(body({ deliverAt: NOW_S + 4000 }), { deliverAtGiven: true, now: at(1001) }))
        .thenMatches([{ type: 'ScheduledMessageEdited', data: { new: { deliverAt: NOW_S + 4000 }, wasFailed: true } }]);
    });
  });

  describe('cancel', () => {
    it('deletes the sender’s message', () =>
      given([created()]).when(remove()).then([{ type: 'ScheduledMessageDeleted', data: { ...header, at: NOW } }]));
    it('refuses another user and a second delete', () => {
      given([created()]).when(remove(OTHELLO)).thenThrows(ScheduledMessageDoesNotExistError);
      given([created(), { type: 'ScheduledMessageDeleted', data: { ...header, at: NOW } }]).when(remove()).thenThrows(ScheduledMessageDoesNotExistError);
      given([]).when(remove()).thenThrows(ScheduledMessageDoesNotExistError);
    });
  });

  describe('deliver', () => {
    it('claims a due message with the allocated message id', () => given([created()]).when(claim(100)).then([claimed(100)]));
    it('confirms the claimed message id', () => given([created(), claimed(100)]).when(confirm(100)).then([delivered(100)]));
    it('does nothing for a message that is not due yet (a stale job after a move)', () =>
      given([created()]).when(claim(100, at(299))).thenNothingHappened());
    it('does nothing for a deleted message', () =>
      given([created(), { type: 'ScheduledMessageDeleted', data: { ...header, at: NOW } }]).when(claim()).thenNothingHappened());
    it('once delivered, the fold keeps no text (the message holds it) and the stream\'s snapshots are forgotten', () => {
      const state = [created({ content: 'secret words' }), claimed(100), delivered(100)].reduce(scheduledMessageDecider.evolve, scheduledMessageDecider.initialState());
      expect(JSON.stringify(state)).not.toContain('secret words');
      expect(state).toMatchObject({ deliveredMessageId: 100, body: { content: '', renderedContent: '' } });
      expect(scheduledMessageDecider.snapshot!.forgets!(delivered(100))).toEqual(['scheduled_message-7']);
      expect(scheduledMessageDecider.snapshot!.forgets!(claimed(100))).toEqual([]);
    });
  });

  describe('double delivery refused', () => {
    it('a second claim (duplicate job, racing worker) is refused, whatever its message id', () => {
      given([created(), claimed(100)]).when(claim(101)).thenNothingHappened();
      given([created(), claimed(100), delivered(100)]).when(claim(102)).thenNothingHappened();
    });
    it('only the claimed id is confirmed, once', () => {
      given([created(), claimed(100)]).when(confirm(101)).thenNothingHappened();
      given([created(), claimed(100), delivered(100)]).when(confirm(100)).thenNothingHappened();
    });
    it('a failed message is not claimed until edited', () => given([created(), failed()]).when(claim(100, at(1001))).thenNothingHappened());
  });

  describe('fail', () => {
    it('marks a due message failed', () =>
      given([created()]).when(fail()).then([failed()]));
    it('does not fail a delivered, deleted, already failed or not yet due message', () => {
      given([created(), claimed(), delivered()]).when(fail()).thenNothingHappened();
      given([created(), { type: 'ScheduledMessageDeleted', data: { ...header, at: NOW } }]).when(fail()).thenNothingHappened();
      given([created(), failed()]).when(fail()).thenNothingHappened();
      given([created()]).when(fail(at(10))).thenNothingHappened();
    });
    it('a failure after the claim is final: the claimed id can still be confirmed if its message appeared', () =>
      given([created(), claimed(100), failed()]).when(confirm(100)).then([delivered(100)]));
  });

  it('words the failure notice as Zulip does', () =>
    expect(failedScheduledMessageNotice(NOW_S, 'Account is deactivated')).toBe(
      'The message you scheduled for <time:2026-01-01T00:00:00+00:00> was not sent because of the following error:\n\n> Account is deactivated\n\n[View scheduled messages](#scheduled)\n\n',
    ));
});
