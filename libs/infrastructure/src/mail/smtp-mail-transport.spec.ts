import { classifySmtpError } from './smtp-mail-transport';

describe('what a failed SMTP hand-off means', () => {
  const failure = (code: string, responseCode?: number, response?: string) => Object.assign(new Error('failed'), { code, responseCode, response });

  it('a 5xx reply to the envelope or the message is final', () => {
    expect(classifySmtpError(failure('EENVELOPE', 550, '550 No such user'))).toMatchObject({ permanent: true, responseCode: 550, message: 'EENVELOPE: 550 No such user' });
    expect(classifySmtpError(failure('EMESSAGE', 554, '554 Rejected'))).toMatchObject({ permanent: true });
  });

  it('a 4xx reply, a failed login, a lost connection or a timeout is tried again', () => {
    expect(classifySmtpError(failure('EENVELOPE', 451, '451 Try later')).permanent).toBe(false);
    expect(classifySmtpError(failure('EAUTH', 535, '535 Invalid login')).permanent).toBe(false);
    expect(classifySmtpError(failure('ESOCKET')).permanent).toBe(false);
    expect(classifySmtpError(failure('ETIMEDOUT')).permanent).toBe(false);
    expect(classifySmtpError(new Error('anything else')).permanent).toBe(false);
  });
});
