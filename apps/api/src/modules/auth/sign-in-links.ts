import type { Database } from '../../db/database.ts';
import { createAuthRepository } from './repository.ts';
import { hashToken, newOpaqueToken } from './tokens.ts';

/**
 * A sign-in link for a button of a message the portal sends about the customer's account (the
 * receipt's "see the invoice"), issued only when that message goes to the address the customer
 * signs in with: a billing mailbox read by someone else gets a plain link to the page instead,
 * which asks to sign in. Single use, stored hashed, bound to the tenant, opening `next`
 * (decision 027). Answers the token, or undefined.
 */
export async function issueSignInLinkFor(
  db: Database,
  input: { tenantId: string; customerId: string; to: string; next: string; minutes: number },
): Promise<string | undefined> {
  const repository = createAuthRepository();
  return db.withTenant(input.tenantId, async (sql) => {
    const customer = await repository.findCustomerById(sql, input.customerId);
    if (!customer || customer.email.toLowerCase() !== input.to.toLowerCase()) return undefined;
    const token = newOpaqueToken();
    await repository.insertSignInLink(sql, {
      customerId: customer.id,
      tokenHash: hashToken(token),
      nextPath: input.next,
      remember: false,
      expiresAt: new Date(Date.now() + input.minutes * 60_000),
    });
    return token;
  });
}
