export * from './errors.ts';
export * from './common.ts';
export * from './input-safety.ts';
export * from './links.ts';
export * from './customer-limits.ts';
export * from './visual-config.ts';
export * from './auth.ts';
export * from './sessions.ts';
export * from './passkeys.ts';
export {
  emailFragments,
  foldForComparison,
  nameFragments,
  PasswordProblem,
  passwordProblems,
  type TPasswordContext,
  type TPasswordProblem,
} from './password-rules.ts';
export * from './invoices.ts';
export * from './payments.ts';
export * from './redsys.ts';
export * from './account.ts';
export * from './tax-id.ts';
export * from './paths.ts';
export * from './routes.ts';
export * from './admin.ts';
export * from './fiscal-data.ts';
export * from './returned-debits.ts';
export * from './invoice-threads.ts';
export * from './documents.ts';
export * from './auto-pay.ts';
