import {
  checkReportRequest,
  MAX_REPORT_MESSAGE_SNIPPET_LENGTH,
  messageLinkSyntax,
  messageReport,
  type MessageReportFacts,
  MessageReportError,
  REPORT_MESSAGE_TYPES,
  unusedFence,
  userMentionsForDisplay,
} from '@app/domain';

const hamlet = { userId: 10, fullName: 'King Hamlet' };
const othello = { userId: 12, fullName: 'Othello, the Moor of Venice' };
const iago = { userId: 11, fullName: 'Iago' };
const cordelia = { userId: 8, fullName: 'Cordelia, Lear\'s daughter' };
// 2026-01-02T03:04:05Z
const SENT = Date.UTC(2026, 0, 2, 3, 4, 5) / 1000;
const URL = 'http://zulip.example.com';

const facts = (overrides: Partial<MessageReportFacts> = {}, message: Partial<MessageReportFacts['message']> = {}): MessageReportFacts => ({
  reportType: 'harassment',
  description: 'this is crime against food',
  reporter: hamlet,
  moderationRequestChannelId: 20,
  realmUrl: URL,
  message: { id: 100, sender: othello, timestamp: SENT, content: 'I squeeze toothpaste from the middle', channel: { id: 5, name: 'Denmark', topic: 'civillized discussions' }, ...message },
  ...overrides,
});

describe('message reports (report_message_backend, send_message_report)', () => {
  describe('checkReportRequest', () => {
    const request = (o: Partial<Parameters<typeof checkReportRequest>[0]> = {}) => ({ reportType: 'spam', description: '', moderationRequestChannelId: 20, ...o });

    it('given a moderation request channel, when a known type is reported, then it is accepted', () => {
      for (const { key } of REPORT_MESSAGE_TYPES) expect(checkReportRequest(request({ reportType: key, description: 'x' }))).toBe(key);
    });

    it('when the report type is unknown, then "Invalid report_type"', () =>
      expect(() => checkReportRequest(request({ reportType: 'rude' }))).toThrow(new MessageReportError('Invalid report_type')));

    it('when the description is longer than 1000 characters, then it is refused (1000 is fine)', () => {
      expect(checkReportRequest(request({ description: '😀'.repeat(1000) }))).toBe('spam');
      expect(() => checkReportRequest(request({ description: 'x'.repeat(1001) }))).toThrow('description is too long (limit: 1000 characters)');
    });

    it('when the type is "other" without a description, then "An explanation is required."', () => {
      expect(() => checkReportRequest(request({ reportType: 'other' }))).toThrow('An explanation is required.');
      expect(checkReportRequest(request({ reportType: 'other', description: 'why' }))).toBe('other');
    });

    it('given no moderation request channel (-1), when reporting, then "Message reporting is not enabled in this organization."', () =>
      expect(() => checkReportRequest(request({ moderationRequestChannelId: -1 }))).toThrow('Message reporting is not enabled in this organization.'));

    it('checks the explanation before whether reporting is enabled (Zulip\'s order)', () =>
      expect(() => checkReportRequest(request({ reportType: 'other', moderationRequestChannelId: -1 }))).toThrow('An explanation is required.'));
  });

  describe('messageReport', () => {
    it('given a channel message, then the report links it with #**channel>topic@id**, under "<sender> moderation"', () => {
      const report = messageReport(facts());
      expect(report.channelId).toBe(20);
      expect(report.topic).toBe('Othello, the Moor of Venice moderation');
      expect(report.content).toBe(
        '@_**King Hamlet|10** reported a message sent by @_**Othello, the Moor of Venice|12** at <time:2026-01-02T03:04:05+00:00>.\n' +
          '```quote\n**Harassment**. this is crime against food\n```\n\n' +
          '``` spoiler Original message at #**Denmark>civillized discussions@100**\nI squeeze toothpaste from the middle\n```',
      );
      expect(report.confirmation).toEqual({
        userId: 10,
        content: `You reported [a message](${URL}/#narrow/channel/5-Denmark/topic/civillized.20discussions/near/100) for harassment.`,
      });
    });

    it('given no description, then the reason stands alone ("**Spam**. ")', () =>
      expect(messageReport(facts({ reportType: 'spam', description: '' })).content).toContain('```quote\n**Spam**. \n```'));

    it('given a 1:1 direct message reported by its recipient, then the header names no recipient and links the conversation', () => {
      const report = messageReport(facts({}, { channel: undefined, participants: [hamlet, othello] }));
      expect(report.content).toBe(
        '@_**King Hamlet|10** reported a message sent by @_**Othello, the Moor of Venice|12** at <time:2026-01-02T03:04:05+00:00>.\n' +
          '```quote\n**Harassment**. this is crime against food\n```\n\n' +
          `\`\`\` spoiler [Original message](${URL}/#narrow/dm/10,12/near/100)\nI squeeze toothpaste from the middle\n\`\`\``,
      );
      expect(report.confirmation.content).toBe(`You reported [a message](${URL}/#narrow/dm/10,12/near/100) for harassment.`);
    });

    it('given one\'s own 1:1 direct message, then the header names its recipient; to oneself, oneself', () => {
      expect(messageReport(facts({ reporter: othello }, { channel: undefined, participants: [hamlet, othello] })).content).toMatch(
        /^@_\*\*Othello, the Moor of Venice\|12\*\* reported a message sent by @_\*\*Othello, the Moor of Venice\|12\*\* to @_\*\*King Hamlet\|10\*\* at /,
      );
      const self = messageReport(facts({ reporter: othello }, { channel: undefined, participants: [othello] }));
      expect(self.content).toContain('sent by @_**Othello, the Moor of Venice|12** to @_**Othello, the Moor of Venice|12** at');
      expect(self.content).toContain(`[Original message](${URL}/#narrow/dm/12/near/100)`);
    });

    it('given a group direct message, then the header lists the other participants and the link is a -group one', () => {
      const report = messageReport(facts({}, { channel: undefined, participants: [hamlet, iago, othello] }));
      expect(report.content).toContain('sent by @_**Othello, the Moor of Venice|12** to @_**King Hamlet|10** and @_**Iago|11** at');
      expect(report.content).toContain(`[Original message](${URL}/#narrow/dm/10,11,12-group/near/100)`);
    });

    it('lists three users with a serial comma, and more than three as the first two and a count', () => {
      expect(userMentionsForDisplay([cordelia, hamlet, iago])).toBe('@_**Cordelia, Lear\'s daughter|8**, @_**King Hamlet|10**, and @_**Iago|11**');
      expect(userMentionsForDisplay([cordelia, hamlet, iago, othello])).toBe('@_**Cordelia, Lear\'s daughter|8**, @_**King Hamlet|10**, and 2 more');
    });

    it('given a message holding a fence, then a longer fence wraps it', () => {
      expect(unusedFence('plain')).toBe('```');
      expect(unusedFence('```py\nx\n```')).toBe('````');
      expect(unusedFence('text\n   `````\n')).toBe('``````');
      const report = messageReport(facts({}, { content: '```\ncode\n```' }));
      expect(report.content.endsWith('\n````')).toBe(true);
      expect(report.content).toContain('```` spoiler Original message');
    });

    it('given a very long message, then it is cut to the snippet length with "[message truncated]"', () => {
      const long = '.'.repeat(MAX_REPORT_MESSAGE_SNIPPET_LENGTH + 1);
      const report = messageReport(facts({}, { content: long }));
      expect(report.content).not.toContain(long);
      expect(report.content).toContain(`${'.'.repeat(MAX_REPORT_MESSAGE_SNIPPET_LENGTH - 20)}\n[message truncated]\n\`\`\``);
    });

    it('given names the link syntax cannot carry, then a plain Markdown link (get_message_link_syntax)', () => {
      expect(messageLinkSyntax(7, 'Sw*den', '', 100)).toBe('[#Sw&#42;den > general chat @ 💬](#narrow/channel/7-Sw.2Aden/topic//near/100)');
      expect(messageLinkSyntax(7, 'Sweden', 'a > b', 100)).toBe('[#Sweden > a &gt; b @ 💬](#narrow/channel/7-Sweden/topic/a.20.3E.20b/near/100)');
      expect(messageLinkSyntax(7, 'Sweden', '', 100)).toBe('#**Sweden>@100**');
    });
  });
});
