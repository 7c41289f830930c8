import { Linter } from 'eslint';

// The config is CommonJS so jest can load it as it is; the spec lints source text placed virtually at a path.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require('../../eslint.config.js') as Linter.Config[];

const linter = new Linter({ cwd: `${__dirname}/../..` });
const problems = (filename: string, code: string) =>
  linter.verify(code, config, { filename }).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
const restricted = (filename: string, code: string) => problems(filename, code).filter((p) => p.startsWith('no-restricted-imports'));

describe('import direction (eslint.config.js)', () => {
  it.each([
    ['libs/domain/src/users/x.ts', "import { UserQueries } from '@app/application';"],
    ['libs/domain/src/users/x.ts', "import type { Foo } from '../../../application/src/users/foo';"],
    ['libs/domain/src/users/x.ts', "export * from '@app/projections/users/users.projection';"],
    ['libs/domain/src/users/x.ts', "import { Injectable } from '@nestjs/common';"],
    ['libs/domain/src/users/x.spec.ts', "import { SendMessageCommand } from '@app/application';"],
    ['libs/config/src/x.ts', "import { usersStream } from '@app/domain';"],
    ['libs/application/src/users/x.ts', "import { Projector } from '@app/projections';"],
    ['libs/application/src/users/x.ts', "import { openSqlite } from '../../../infrastructure/src';"],
    ['libs/application/src/users/x.ts', "import { PERSONAS } from '@app/testing';"],
    ['libs/projections/src/users/x.ts', "import { AppModule } from '../../../../apps/api/src/app.module';"],
    ['libs/projections/src/users/x.ts', "import { openSqlite } from '@app/infrastructure';"],
    ['libs/infrastructure/src/x.ts', "import { Projector } from '@app/projections';"],
    ['libs/testing/src/x.ts', "import { AppModule } from '../../../apps/api/src/app.module';"],
    ['libs/testing/src/x.spec.ts', "import { CliModule } from '../../../apps/cli/src/cli.module';"],
    ['apps/api/src/x.ts', "import { PERSONAS } from '@app/testing';"],
  ])('%s: %s is an error', (filename, code) => {
    expect(restricted(filename, code)).toHaveLength(1);
  });

  it.each([
    ['libs/domain/src/users/x.ts', "import { usersStream } from '@app/domain';"],
    ['libs/domain/src/users/x.spec.ts', "import { givenWhenThen } from '@app/testing';"],
    ['libs/application/src/users/x.ts', "import type { AppConfig } from '@app/config';"],
    ['libs/application/src/users/x.ts', "import { usersStream } from '@app/domain';"],
    ['libs/application/src/users/x.ts', "import { UserQueries } from '../users/user.queries';"],
    ['libs/application/src/users/x.spec.ts', "import { openSqlite } from '@app/infrastructure';"],
    ['libs/projections/src/users/x.ts', "import { UserQueries } from '@app/application';"],
    ['libs/infrastructure/src/x.ts', "import { EVENT_STORE } from '@app/application';"],
    ['libs/testing/src/x.ts', "import { Projector } from '@app/projections';"],
    ['apps/api/src/x.ts', "import { openSqlite } from '@app/infrastructure';"],
    ['apps/api/src/x.spec.ts', "import { PERSONAS } from '@app/testing';"],
  ])('%s: %s is allowed', (filename, code) => {
    expect(problems(filename, code)).toEqual([]);
  });

  it('names the rule it breaks', () => {
    expect(restricted('libs/domain/src/x.ts', "import { A } from '@app/application';")[0]).toContain(
      'libs/domain must not import application: imports point one way: domain ← application ← projections / infrastructure ← apps',
    );
  });
});
