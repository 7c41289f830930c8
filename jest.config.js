// One jest run, several tiers (projects). `npm test` runs them all; `--selectProjects <name>` one.
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];
const libs = ['domain', 'application', 'projections', 'infrastructure', 'config', 'testing'];
const moduleNameMapper = Object.fromEntries(
  libs.flatMap((lib) => [
    [`^@app/${lib}$`, `<rootDir>/libs/${lib}/src`],
    [`^@app/${lib}/(.*)$`, `<rootDir>/libs/${lib}/src/$1`],
  ]),
);
const base = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  testEnvironment: 'node',
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-timeout.js'],
};

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts', '<rootDir>/test/lint/**/*.spec.ts'] },
    { ...base, displayName: 'api', testMatch: ['<rootDir>/test/api/**/*.api-spec.ts'] },
    // The split layout (one worker + two API applications without projectors on one data
    // directory, docs/deployment.md): the suites of the everyday paths again in that layout.
    {
      ...base,
      displayName: 'split',
      setupFiles: ['<rootDir>/test/support/split-layout.setup.js'],
      setupFilesAfterEnv: ['<rootDir>/test/support/jest-timeout.js', '<rootDir>/test/support/split-layout.timeout.js'],
      testMatch: ['messages-send', 'messages-fetch', 'message-edit', 'message-flags', 'drafts', 'scheduled-messages', 'events', 'register-state', 'concurrency', 'email-change', 'missed-message-emails', 'message-retention'].map(
        (name) => `<rootDir>/test/api/${name}.api-spec.ts`,
      ).concat('<rootDir>/test/api/*.split-spec.ts'),
    },
    { ...base, displayName: 'contract', testMatch: ['<rootDir>/test/contract/**/*.contract-spec.ts'] },
    { ...base, displayName: 'crash', testMatch: ['<rootDir>/test/crash/**/*.crash-spec.ts'] },
    // Issue 35's proof: a scenario, then every byte the server keeps, logs and answers scanned (docs/security.md).
    { ...base, displayName: 'proof', testMatch: ['<rootDir>/test/proof/**/*.proof-spec.ts'] },
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
};
