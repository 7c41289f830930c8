// @ts-check
// ESLint holds one line: imports point one way, domain ← application ← projections / infrastructure ← apps
// (docs/architecture: the layers). Nothing else is linted on purpose; formatting is not this file's job.
// CommonJS (not .mjs) so the spec in test/lint can `require` it into ESLint's Linter inside jest.
const { defineConfig } = require('eslint/config');
const tseslint = require('typescript-eslint');

const DIRECTION = 'imports point one way: domain ← application ← projections / infrastructure ← apps';

/**
 * What a layer must not import. A lib is named by its folder; `apps` is the apps/ folder, which no lib may reach
 * (it has no alias, so only a relative path can). `@nestjs` keeps the deciders free of the framework.
 * config is a leaf every layer may read; projections and infrastructure both sit on application and ignore each other.
 */
const FORBIDDEN = {
  'libs/config': ['domain', 'application', 'projections', 'infrastructure', 'testing', 'apps'],
  'libs/domain': ['application', 'projections', 'infrastructure', 'config', 'testing', 'apps', '@nestjs'],
  'libs/application': ['projections', 'infrastructure', 'testing', 'apps'],
  'libs/projections': ['infrastructure', 'testing', 'apps'],
  'libs/infrastructure': ['projections', 'testing', 'apps'],
  'libs/testing': ['apps'],
  apps: ['testing'],
};

/**
 * Spec files beside a lib's code are tests, not part of the layer: they may use the test kit (@app/testing) and run
 * against the real stores (@app/infrastructure), but otherwise keep their layer's direction and never reach into apps.
 * Everything in libs/testing (specs included) stays clear of apps, so the kit can be used from any layer's specs.
 */
const ALLOWED_IN_SPECS = ['testing', 'infrastructure'];

/** One pattern per forbidden target, matching both the `@app/<lib>` alias and a relative path into the lib. */
function pattern(layer, target) {
  const message = `${layer} must not import ${target === 'apps' ? 'apps/' : target}: ${DIRECTION}.`;
  if (target === 'apps') return { regex: '^(\\.\\./)+apps(/|$)', message };
  if (target.startsWith('@')) return { regex: `^${target}/`, message };
  return { regex: `^(@app/${target}(/|$)|(\\.\\./)+(libs/)?${target}/src(/|$))`, message };
}

function restrict(layer, targets) {
  return { 'no-restricted-imports': ['error', { patterns: targets.map((target) => pattern(layer, target)) }] };
}

module.exports = defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'docker/**'] },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    extends: [tseslint.configs.base],
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
  ...Object.entries(FORBIDDEN).flatMap(([layer, targets]) => [
    { files: [`${layer}/**/*.ts`], rules: restrict(layer, targets) },
    {
      files: [`${layer}/**/*.spec.ts`],
      rules: restrict(layer, layer === 'libs/testing' ? targets : targets.filter((t) => !ALLOWED_IN_SPECS.includes(t))),
    },
  ]),
);
