import { z } from 'zod';
import type { TRouteDef } from './routes.ts';
import { ZSecondFactorPolicy } from './visual-config.ts';

/** The ways a tenant's customers sign in besides the password (issue 24). */
export const ZSignInMethods = z.object({
  /** "Send me a link" by e-mail. */
  link: z.boolean(),
  passkeys: z.boolean(),
  /** A code from an authenticator app: not offered, each customer's choice, or required. */
  second_factor: ZSecondFactorPolicy,
});
export type TSignInMethods = z.infer<typeof ZSignInMethods>;

/** Only what is given changes. */
export const ZPutSignInMethods = ZSignInMethods.partial().refine((v) => Object.keys(v).length > 0, {
  message: 'empty',
});

/** The provider turns sign-in methods on or off, under `/{tenant}/api/1.0/admin/sign-in-methods`. */
export const signInMethodRoutes = {
  getSignInMethods: {
    method: 'GET',
    path: '/admin/sign-in-methods',
    auth: 'apiKey',
    summary: "The tenant's sign-in methods besides the password",
    response: ZSignInMethods,
  },
  putSignInMethods: {
    method: 'PUT',
    path: '/admin/sign-in-methods',
    auth: 'apiKey',
    summary:
      'Turn sign-in methods on or off (the portal shows the change within 30 seconds); answers all of them',
    body: ZPutSignInMethods,
    response: ZSignInMethods,
  },
} as const satisfies Record<string, TRouteDef>;
