import type { Role } from '@app/domain';

export type Persona = { email: string; fullName: string; role: Role; bot?: boolean };

/** Zulip's test personas (zerver/lib/test_classes.py example_user), realm "acme" unless named. */
export const PERSONAS = {
  desdemona: { email: 'desdemona@acme.test', fullName: 'Desdemona', role: 'owner' },
  iago: { email: 'iago@acme.test', fullName: 'Iago', role: 'administrator' },
  shiva: { email: 'shiva@acme.test', fullName: 'Shiva', role: 'moderator' },
  hamlet: { email: 'hamlet@acme.test', fullName: 'King Hamlet', role: 'member' },
  cordelia: { email: 'cordelia@acme.test', fullName: 'Cordelia Lear', role: 'member' },
  polonius: { email: 'polonius@acme.test', fullName: 'Polonius', role: 'guest' },
} as const satisfies Record<string, Persona>;

export type PersonaName = keyof typeof PERSONAS;
