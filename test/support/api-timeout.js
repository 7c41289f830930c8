// The jest project `api`: most specs start a whole application (ApiTestClient.start) in a
// beforeEach. On a loaded machine that can take longer than jest's default 5 s for a hook (seen
// in a full run beside other work: linkifiers' beforeEach). `testTimeout` in a project's config is
// not honoured (it is a global option), so the project sets it here. Specs that need more still
// pass their own timeout.
jest.setTimeout(15_000);
