import type { BenchResults } from './run.ts';

/** One budget of issues 6, 20, 21 and 22 checked against this run's figures. */
export type BudgetCheck = {
  name: string;
  value: number;
  limit: number;
  unit: string;
  /** 'min': the value must be at least the limit; 'max': at most. */
  kind: 'min' | 'max';
  pass: boolean;
};

const KiB = 1024;

function check(
  name: string,
  value: number | undefined,
  kind: 'min' | 'max',
  limit: number,
  unit: string,
): BudgetCheck[] {
  if (value === undefined) return [];
  // A figure that could not be measured (NaN) misses its budget.
  const pass = kind === 'min' ? value >= limit : value <= limit;
  return [{ name, value, limit, unit, kind, pass }];
}

/** `a / b` of two medians to two decimals, or undefined when either was not measured. */
const ratioOf = (a?: { median: number }, b?: { median: number }): number | undefined =>
  a && b?.median ? Math.round((a.median / b.median) * 100) / 100 : undefined;

/** The budgets of the sections that ran; a section that failed misses its budgets. */
export function checkBudgets(results: Omit<BenchResults, 'budgets'>): BudgetCheck[] {
  const failed = (section: 'api' | 'pdf' | 'isolation' | 'web' | 'service', budget: number) =>
    results.errors[section] !== undefined ? budget : undefined;
  const nan = Number.NaN;
  const { api, pdf, isolation, web, service } = results;
  const invoices = api?.throughput['/invoices']?.median;
  const minimal = api?.throughput['fastify + pg']?.median;
  return [
    ...check(
      '/invoices throughput vs minimal Fastify + pg',
      invoices !== undefined && minimal
        ? Math.round((invoices / minimal) * 100) / 100
        : failed('api', nan),
      'min',
      0.8,
      'x',
    ),
    ...check(
      `/invoices p99 at ${api?.settings.rate ?? 1000} req/s`,
      api?.fixedRate['/invoices']?.medianP99 ?? failed('api', nan),
      'max',
      10,
      'ms',
    ),
    // Issue 22: each list against the minimal route with its own query; /invoices against the
    // route with its query prepared too, as the portal's reads are.
    ...check(
      '/payments throughput vs minimal Fastify + pg with its query',
      ratioOf(api?.throughput['/payments'], api?.throughput['fastify + pg /payments']) ??
        failed('api', nan),
      'min',
      0.9,
      'x',
    ),
    ...check(
      '/invoices throughput vs minimal Fastify + pg, query prepared',
      ratioOf(api?.throughput['/invoices'], api?.throughput['fastify + pg prepared']) ??
        failed('api', nan),
      'min',
      0.9,
      'x',
    ),
    ...check('Invoice PDF p50', pdf?.portal.p50 ?? failed('pdf', nan), 'max', 10, 'ms'),
    ...check(
      '/invoices p99 beside PDFs + a 10,000-invoice batch of another tenant, vs alone',
      isolation?.ratio ?? failed('isolation', nan),
      'max',
      2,
      'x',
    ),
    // Issue 21: /login against the least a React 19 sign-in costs, built in the same run.
    ...check(
      '/login JS+CSS (br) vs a minimal React 19 login',
      web?.floor.loginRatio ?? failed('web', nan),
      'max',
      1.5,
      'x',
    ),
    ...check(
      '/invoices JS+CSS (br, signed in)',
      web ? Math.round((web.bytes.invoices.bytes / KiB) * 10) / 10 : failed('web', nan),
      'max',
      150,
      'KiB',
    ),
    ...check(
      'Lighthouse performance /login (mobile)',
      web?.lighthouse.login.score ?? failed('web', nan),
      'min',
      98,
      '',
    ),
    ...check(
      'Lighthouse LCP /login vs static page',
      web?.lighthouse.lcpRatio ?? failed('web', nan),
      'max',
      1.2,
      'x',
    ),
    // Issue 22: the compiled server against a bare Fastify + pg process, both bundled.
    ...check(
      'Idle RSS vs bare Fastify + pg',
      service?.ratios.rss ?? failed('service', nan),
      'max',
      2,
      'x',
    ),
    ...check(
      'Start to ready vs bare Fastify + pg',
      service?.ratios.ready ?? failed('service', nan),
      'max',
      2,
      'x',
    ),
    ...check(
      'Layout shift while /login is hydrated (CLS, worst run)',
      web?.loginCls ?? failed('web', nan),
      'max',
      0,
      '',
    ),
  ];
}
