/** What the envelope assertions read of an HTTP response (supertest's Response has it). */
export type EnvelopeResponse = { status: number; body: any };

/** Asserts Zulip's success envelope and returns the body. */
export function expectSuccess(response: EnvelopeResponse): Record<string, any> {
  if (response.status !== 200 || response.body?.result !== 'success') {
    throw new Error(`expected success, got ${response.status}: ${JSON.stringify(response.body)}`);
  }
  expect(response.body.msg).toBe('');
  return response.body;
}

/** Asserts Zulip's error envelope with the message (and optionally code and status). */
export function expectError(response: EnvelopeResponse, msg: string, options: { code?: string; status?: number } = {}): Record<string, any> {
  expect({ status: response.status, result: response.body?.result, msg: response.body?.msg }).toEqual({
    status: options.status ?? 400,
    result: 'error',
    msg,
  });
  expect(typeof response.body.code).toBe('string');
  if (options.code) expect(response.body.code).toBe(options.code);
  return response.body;
}
