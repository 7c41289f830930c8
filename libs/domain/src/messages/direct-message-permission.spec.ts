import { checkCanSendDirectMessage, type DirectMessagePolicyFacts } from '@app/domain';
import { userFacts } from '@app/testing';

describe('checkCanSendDirectMessage (check_can_send_direct_message)', () => {
  const hamlet = userFacts({ userId: 10, role: 'member' });
  const cordelia = userFacts({ userId: 11, role: 'member' });
  const iago = userFacts({ userId: 2, role: 'administrator' });
  const bot = userFacts({ userId: 30, role: 'member', isBot: true });
  const policy = (overrides: Partial<DirectMessagePolicyFacts> = {}): DirectMessagePolicyFacts => ({
    permissionGroup: 'role:everyone', initiatorGroup: 'role:everyone', conversationExists: false, ...overrides,
  });
  const check = (sender: typeof hamlet, recipients: (typeof hamlet)[], p: DirectMessagePolicyFacts | undefined) => () => checkCanSendDirectMessage(sender, recipients, p);

  it('allows everything under the defaults, and when the organization\'s policy is unknown', () => {
    expect(check(hamlet, [cordelia], policy())).not.toThrow();
    expect(check(hamlet, [cordelia], undefined)).not.toThrow();
  });

  it('"nobody": direct messages are disabled, except from bots and to oneself or bots only', () => {
    const off = policy({ permissionGroup: 'role:nobody' });
    expect(check(hamlet, [cordelia], off)).toThrow('Direct messages are disabled in this organization.');
    expect(check(iago, [hamlet], off)).toThrow('Direct messages are disabled in this organization.');
    expect(check(hamlet, [hamlet], off)).not.toThrow();
    expect(check(hamlet, [bot], off)).not.toThrow();
    expect(check(bot, [hamlet], off)).not.toThrow();
  });

  it('a group: someone of the conversation, the sender included, must belong to it', () => {
    const admins = policy({ permissionGroup: 'role:administrators' });
    expect(check(hamlet, [cordelia], admins)).toThrow('This conversation does not include any users who can authorize it.');
    expect(check(hamlet, [cordelia, iago], admins)).not.toThrow();
    expect(check(iago, [hamlet], admins)).not.toThrow();
  });

  it('the initiator group starts conversations; others only answer in existing ones', () => {
    const moderators = policy({ initiatorGroup: 'role:moderators' });
    expect(check(hamlet, [cordelia], moderators)).toThrow('You are not allowed to start direct message conversations.');
    expect(check(hamlet, [cordelia], { ...moderators, conversationExists: true })).not.toThrow();
    expect(check(iago, [cordelia], moderators)).not.toThrow();
  });
});
