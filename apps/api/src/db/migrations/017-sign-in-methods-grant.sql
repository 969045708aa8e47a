-- The provider's integration API turns sign-in methods on or off (issue 24,
-- PUT /admin/sign-in-methods): the application role may change these three columns of its own
-- tenant's row (RLS: the tenant of the transaction), and nothing else of `tenants`.
GRANT UPDATE (sign_in_link, passkeys, second_factor, updated_at) ON tenants TO portal_app;
