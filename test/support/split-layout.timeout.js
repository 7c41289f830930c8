// The jest project `split`: three applications start where the api project starts one, so a hook's
// default 5 s can run out on a loaded machine (seen in CI-like runs: split-layout.split-spec's
// beforeAll). `testTimeout` in a project's config is not honoured (it is a global option).
jest.setTimeout(30_000);
