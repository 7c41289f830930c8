// Every jest project: many specs start a whole application (ApiTestClient.start, the CLI's Nest
// context, the e2e servers) in a hook. On a loaded machine that can take longer than jest's default
// 5 s (seen in full runs beside other work: linkifiers' beforeEach, the CLI specs' beforeAll, the
// e2e servers). `testTimeout` in a project's config is not honoured (it is a global option), so
// each project sets it here; the split project raises it again (split-layout.timeout.js). Specs
// that need more still pass their own timeout.
jest.setTimeout(15_000);
