// Test support for the apps: the persona HTTP client, the CLI runner and the fuzzer. They start the real apps, so
// they live here and not in libs/testing, which every layer's specs use and which must not reach into apps/.
export * from './api-test-client';
export * from './fuzz';
export * from './run-cli';
