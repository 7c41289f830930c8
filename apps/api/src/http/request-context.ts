import type { Actor } from '@app/domain';
import type { UserDocument } from '@app/application';

/** The authenticated caller of a request. */
export type AuthenticatedUser = { actor: Actor; user: UserDocument };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Request id: the client's X-Request-Id when sane, else generated. Logged and named in 500s. */
      id?: string;
      auth?: AuthenticatedUser;
    }
  }
}
