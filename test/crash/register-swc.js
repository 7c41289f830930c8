// A tiny require hook so that a plain `node` child process can run this repository's TypeScript,
// the way jest does: `node -r ./test/crash/register-swc.js test/crash/crash-worker.ts …`.
//  - `.ts` files are compiled on load with @swc/core, with the same options as jest.config.js;
//  - `@app/<lib>[/<path>]` resolves to `libs/<lib>/src[/<path>]`, like jest's moduleNameMapper.
// Test support only (the crash suite spawns workers with it); the server is built with tsc.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..', '..');
const swcOptions = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const alias = /^@app\/([a-z-]+)(\/.*)?$/.exec(request);
  if (alias) request = path.join(root, 'libs', alias[1], 'src', alias[2] || '');
  return resolveFilename.call(this, request, ...rest);
};

// Registering the extension also lets Node find `index.ts` and extensionless `./file` imports.
Module._extensions['.ts'] = function (module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...swcOptions, filename });
  module._compile(code, filename);
};
