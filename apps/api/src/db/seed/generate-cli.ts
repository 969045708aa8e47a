import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../open.ts';
import { defaultLoadShape, generateLoad, loadCustomerEmail, loadPassword } from './generate.ts';

const usage = `Fills a database with generated tenants, customers, invoices, lines and instalments.

  npm run db:generate -- [--tenants 10] [--customers 1000] [--invoices 100] [--seed 1]
                         [--anchor 2026-11-01] [--concurrency 2]

  --customers is per tenant, --invoices per customer. The target is DATABASE_URL (PostgreSQL), or
  the embedded database in DATA_DIR without it. Migrates first; refuses to run when the generated
  tenants (load01, load02, ...) already exist.`;

async function main() {
  const { values } = parseArgs({
    options: {
      tenants: { type: 'string' },
      customers: { type: 'string' },
      invoices: { type: 'string' },
      seed: { type: 'string' },
      anchor: { type: 'string' },
      concurrency: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const int = (value: string | undefined, fallback: number) =>
    value === undefined ? fallback : Number.parseInt(value, 10);
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    const result = await generateLoad(db, {
      shape: {
        tenants: int(values.tenants, defaultLoadShape.tenants),
        customersPerTenant: int(values.customers, defaultLoadShape.customersPerTenant),
        invoicesPerCustomer: int(values.invoices, defaultLoadShape.invoicesPerCustomer),
        seed: int(values.seed, defaultLoadShape.seed),
        anchorDate: values.anchor ?? defaultLoadShape.anchorDate,
      },
      publicUrl: config.publicUrl,
      concurrency: int(values.concurrency, 2),
      onProgress: ({ invoices, ofInvoices }) => {
        process.stderr.write(
          `\r  ${invoices.toLocaleString('en')} / ${ofInvoices.toLocaleString('en')} invoices`,
        );
      },
    });
    process.stderr.write('\n');
    console.log(
      `Generated ${result.tenants} tenants, ${result.customers} customers, ${result.invoices} invoices, ` +
        `${result.lines} lines, ${result.instalments} instalments in ${result.seconds.toFixed(1)} s ` +
        `on ${db.kind === 'postgres' ? 'PostgreSQL' : 'the embedded database'}.\n` +
        `Sign in on tenant load01 as ${loadCustomerEmail(0)} / ${loadPassword}.`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write('\n');
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
