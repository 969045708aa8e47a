import { hashPassword } from '../../modules/auth/passwords.ts';
import type { Database, Sql } from '../database.ts';
import { insertRows } from '../insert-rows.ts';
import { migrate } from '../migrate.ts';
import { redsysPublicTestMerchant } from './demo.ts';
import { spanishIban } from './iban.ts';
import { demoLogoSvg } from './logos.ts';
import { seededRandom } from './random.ts';

/**
 * The load generator (issue 6): N tenants x M customers x K invoices with their lines and
 * instalments, for benchmarks and for trying the portal at volume. Deterministic: every row is a
 * function of the shape and of its customer's position alone, so the same shape gives the same
 * database whatever the batch size or the concurrency. Every customer signs in with
 * `loadPassword`; its argon2 hash is computed once and shared by all of them.
 */
export type LoadShape = {
  tenants: number;
  /** Customers of each tenant. */
  customersPerTenant: number;
  /** Invoices of each customer: one a month, going back from `anchorDate`. */
  invoicesPerCustomer: number;
  seed: number;
  /** The newest invoices' month (YYYY-MM-DD, day ignored). Fixed, so the data never depends on today. */
  anchorDate: string;
};

export const defaultLoadShape: LoadShape = {
  tenants: 10,
  customersPerTenant: 1000,
  invoicesPerCustomer: 100,
  seed: 1,
  anchorDate: '2026-11-01',
};

/** Bumped whenever the generated rows change, so that a kept database is known to be stale. */
export const generatorVersion = 1;

export const loadPassword = 'Carga1234!';

/**
 * `load01` ... `load99`, then `load0100` ... `load9999` (the 1,000-tenant shape of issue 22): valid
 * tenant ids, the first 99 as they always were, so the kept data sets stay valid.
 */
export const loadTenantId = (tenantIndex: number): string =>
  `load${String(tenantIndex + 1).padStart(tenantIndex < 99 ? 2 : 4, '0')}`;

export const loadCustomerEmail = (customerIndex: number): string =>
  `cliente${customerIndex + 1}@carga.test`;

/**
 * A deterministic UUID (v4 layout) naming a generated row: kind, tenant, customer, invoice and
 * instalment number in hex. Ordered ids also keep the B-tree inserts at the right edge.
 */
export function loadUuid(
  kind: number,
  tenantIndex: number,
  customerIndex = 0,
  invoiceIndex = 0,
  seq = 0,
): string {
  const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');
  const s =
    hex(kind, 2) +
    hex(tenantIndex, 4) +
    hex(customerIndex, 8) +
    hex(invoiceIndex, 8) +
    hex(seq, 4) +
    '0000';
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(12, 15)}-8${s.slice(15, 18)}-${s.slice(18, 30)}`;
}

const kinds = { customer: 1, instalment: 2 } as const;

type Row = readonly unknown[];
export type LoadRows = Record<keyof typeof loadTables, Row[]>;

/** The generated tables' columns and their types, in the order of the generated rows. */
export const loadTables = {
  customers: {
    tenant_id: 'text',
    id: 'uuid',
    code: 'text',
    email: 'text',
    password_hash: 'text',
    name: 'text',
    last_name: 'text',
    nif: 'text',
    address: 'text',
    city: 'text',
    shipping_cp: 'text',
    shipping_province: 'text',
    shipping_city: 'text',
    shipping_address: 'text',
    phone: 'text',
    invoice_email: 'text',
    payment_method_label: 'text',
    entry_date: 'date',
    language: 'text',
  },
  invoices: {
    tenant_id: 'text',
    id: 'text',
    customer_id: 'uuid',
    invoice_date: 'date',
    base_cents: 'int8',
    vat_cents: 'int8',
    total_cents: 'int8',
    cancelled: 'bool',
  },
  invoice_lines: {
    tenant_id: 'text',
    invoice_id: 'text',
    line_no: 'int4',
    person: 'text',
    concept: 'text',
    quota: 'text',
    quantity: 'numeric',
    unit_price_cents: 'int8',
    vat_rate: 'numeric',
  },
  instalments: {
    tenant_id: 'text',
    id: 'uuid',
    invoice_id: 'text',
    seq: 'int4',
    customer_id: 'uuid',
    due_date: 'date',
    amount_cents: 'int8',
    method: 'text',
    status: 'text',
    paid_date: 'date',
  },
} as const satisfies Record<string, Record<string, string>>;

const firstNames = ['Laura', 'Jordi', 'Ane', 'Marta', 'Pablo', 'Lucía', 'Iker', 'Nuria', 'Sergio'];
const lastNames = ['García', 'Puig', 'Etxeberria', 'López', 'Martín', 'Serra', 'Ruiz', 'Vidal'];
const cities = [
  ['Madrid', '28013', 'Madrid'],
  ['Barcelona', '08008', 'Barcelona'],
  ['Bilbao', '48001', 'Bizkaia'],
  ['Valencia', '46002', 'Valencia'],
  ['Sevilla', '41001', 'Sevilla'],
] as const;
const baseFee = { concept: 'Cuota mensual', quota: 'Tarifa completa', cents: 4500 };
const extras = [
  { concept: 'Entrenamiento personal', quota: 'Sesión', cents: 3000 },
  { concept: 'Clases de yoga', quota: 'Bono 4 clases', cents: 2400 },
  { concept: 'Alquiler de pista de pádel', quota: 'Hora', cents: 800 },
  { concept: 'Taquilla', quota: 'Mensual', cents: 500 },
];
const colors = ['1F7A4D', '6D28D9', 'B45309', '0E7490', 'BE123C', '4D7C0F', '1D4ED8', '7C2D12'];
const vatRate = 21;
const dniLetters = 'TRWAGMYFPDXBNJZSQVHLCKE';

const pick = <T>(list: readonly T[], random: () => number): T =>
  list[Math.floor(random() * list.length)] as T;
const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
const addDays = (d: Date, days: number): Date => new Date(d.getTime() + days * 86_400_000);

/** The tenants table row of generated tenant `tenantIndex`, with the columns the API reads. */
function loadTenant(tenantIndex: number, publicUrl: string) {
  const id = loadTenantId(tenantIndex);
  const color = colors[tenantIndex % colors.length] ?? colors[0];
  const url = new URL(publicUrl);
  url.hostname = `${id}.${url.hostname}`;
  const companyName = `Centro Deportivo Carga ${tenantIndex + 1}`;
  return {
    id,
    company_name: companyName,
    description: 'Datos generados para pruebas de carga.',
    primary_color: color,
    logo_mime: 'image/svg+xml',
    logo_data: new TextEncoder().encode(demoLogoSvg(`C${(tenantIndex + 1) % 10}`, color ?? '')),
    canonical_url: url.origin,
    legal_name: `${companyName} S.L.`,
    legal_nif: `B${String(10_000_000 + tenantIndex * 7919).slice(0, 8)}`,
    legal_address: `Calle de la Carga ${tenantIndex + 1}, 28001 Madrid`,
    contact_email: `secretaria@${id}.carga.test`,
    privacy_email: `privacidad@${id}.carga.test`,
    mail_from: `${companyName} <no-reply@${id}.carga.test>`,
    bank_iban: spanishIban(`2100081361${String(2_000_000_000 + tenantIndex).slice(0, 10)}`),
    bank_beneficiary: `${companyName} S.L.`,
    redsys_merchant_code: redsysPublicTestMerchant.merchantCode,
    redsys_terminal: redsysPublicTestMerchant.terminal,
    redsys_secret_key: redsysPublicTestMerchant.secretKey,
    redsys_signature_versions: ['HMAC_SHA256_V1', 'HMAC_SHA512_V2'],
  };
}

/**
 * The rows of customers `from` (inclusive) to `to` (exclusive) of one tenant: each customer with
 * `invoicesPerCustomer` monthly invoices (one or two lines; one instalment, or three for every
 * sixth invoice). The last two months are still owed, a few older instalments are overdue or were
 * returned by the bank, and about one invoice in a hundred is cancelled.
 */
export function loadRows(
  shape: LoadShape,
  tenantIndex: number,
  from: number,
  to: number,
  passwordHash: string,
): LoadRows {
  const tenantId = loadTenantId(tenantIndex);
  const anchor = new Date(`${shape.anchorDate.slice(0, 7)}-01T00:00:00Z`);
  const rows: LoadRows = { customers: [], invoices: [], invoice_lines: [], instalments: [] };
  const k = shape.invoicesPerCustomer;
  for (let c = from; c < to; c++) {
    // One stream per customer: its rows do not depend on how the work is split.
    const random = seededRandom(
      (shape.seed * 2_654_435_761 + tenantIndex * 1_000_003 + c * 7_919) >>> 0,
    );
    const customerId = loadUuid(kinds.customer, tenantIndex, c);
    const name = pick(firstNames, random);
    const lastName = `${pick(lastNames, random)} ${pick(lastNames, random)}`;
    const [city, cp, province] = pick(cities, random);
    const dni = 10_000_000 + ((c * 104_729 + tenantIndex * 31) % 89_999_999);
    const email = loadCustomerEmail(c);
    const address = `Calle ${pick(lastNames, random)} ${1 + Math.floor(random() * 120)}`;
    rows.customers.push([
      tenantId,
      customerId,
      `C-${String(c + 1).padStart(7, '0')}`,
      email,
      passwordHash,
      name,
      lastName,
      `${dni}${dniLetters[dni % 23]}`,
      address,
      city,
      cp,
      province,
      city,
      address,
      `+34 6${String(10_000_000 + c).slice(-8)}`,
      email,
      'Domiciliación bancaria',
      isoDate(new Date(Date.UTC(anchor.getUTCFullYear() - Math.ceil(k / 12), 0, 1 + (c % 28)))),
      'es',
    ]);
    const person = `${name} ${lastName}`;
    const day = 1 + (c % 28);
    for (let i = 0; i < k; i++) {
      // i = 0 is the newest invoice; numbers grow with the date within a tenant's customer.
      const monthsAgo = i;
      const invoiceDate = new Date(
        Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - monthsAgo, day),
      );
      const number = c * k + (k - i);
      const invoiceId = `F${invoiceDate.getUTCFullYear()}-${String(number).padStart(8, '0')}`;
      const invoiceLines = [{ ...baseFee, quantity: 1 }];
      if (random() < 0.45)
        invoiceLines.push({ ...pick(extras, random), quantity: 1 + Math.floor(random() * 4) });
      const base = invoiceLines.reduce((sum, l) => sum + l.cents * l.quantity, 0);
      const vat = Math.round((base * vatRate) / 100);
      const total = base + vat;
      const cancelled = random() < 0.01;
      rows.invoices.push([
        tenantId,
        invoiceId,
        customerId,
        isoDate(invoiceDate),
        base,
        vat,
        total,
        cancelled,
      ]);
      invoiceLines.forEach((l, n) =>
        rows.invoice_lines.push([
          tenantId,
          invoiceId,
          n + 1,
          person,
          l.concept,
          l.quota,
          l.quantity,
          l.cents,
          vatRate,
        ]),
      );
      const parts = monthsAgo % 6 === 3 ? 3 : 1;
      const method = random() < 0.8 ? 'Domiciliación bancaria' : 'Tarjeta';
      const owedAnyway = random() < 0.03;
      const returned = random() < 0.02;
      for (let seq = 1; seq <= parts; seq++) {
        const amount =
          seq < parts ? Math.floor(total / parts) : total - Math.floor(total / parts) * (parts - 1);
        const due = addDays(invoiceDate, 5 + (seq - 1) * 30);
        const status = cancelled
          ? 'cancelled'
          : monthsAgo < 2 || owedAnyway
            ? 'pending'
            : returned
              ? 'returned'
              : 'paid';
        rows.instalments.push([
          tenantId,
          loadUuid(kinds.instalment, tenantIndex, c, i, seq),
          invoiceId,
          seq,
          customerId,
          isoDate(due),
          amount,
          method,
          status,
          status === 'paid' ? isoDate(addDays(due, Math.floor(random() * 3))) : null,
        ]);
      }
    }
  }
  return rows;
}

/**
 * Writes rows a column at a time: `INSERT ... SELECT FROM unnest($1::text[], $2::uuid[], ...)`
 * sends one array parameter per column, which both engines parse several times faster than a
 * multi-row VALUES list with one parameter per value (insert-rows.ts), on top of the same
 * per-row index and foreign-key work.
 */
async function insertColumns(
  sql: Sql,
  table: keyof typeof loadTables,
  rows: readonly Row[],
  chunk = 50_000,
): Promise<void> {
  const columns = Object.entries(loadTables[table]);
  const names = columns.map(([name]) => name).join(', ');
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  for (let start = 0; start < rows.length; start += chunk) {
    const slice = rows.slice(start, start + chunk);
    await sql.query(
      `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays})`,
      columns.map((_, i) => slice.map((row) => row[i])),
    );
  }
}

/** Writes one batch of rows; foreign keys are satisfied by the order of the tables. */
async function insertLoadRows(sql: Sql, rows: LoadRows): Promise<void> {
  // A bulk load: a million invoices notify nobody and make no webhook event (only the modules'
  // services do, migrations 011 and 018).
  for (const table of ['customers', 'invoices', 'invoice_lines', 'instalments'] as const) {
    await insertColumns(sql, table, rows[table]);
  }
}

export type GenerateOptions = {
  shape?: Partial<LoadShape>;
  /** Base URL of the server: a tenant's canonical URL puts its id in front of the host. */
  publicUrl?: string;
  /** Customers written per transaction. */
  batchCustomers?: number;
  /** Transactions in flight at once (PostgreSQL only; PGlite has one connection). */
  concurrency?: number;
  /** The argon2 hash of `loadPassword`, when the caller already has one. */
  passwordHash?: string;
  onProgress?: (done: { customers: number; invoices: number; ofInvoices: number }) => void;
};

type Job = { tenant: number; from: number; to: number };

export type GenerateResult = {
  shape: LoadShape;
  tenants: number;
  customers: number;
  invoices: number;
  lines: number;
  instalments: number;
  seconds: number;
};

/**
 * Migrates `db`, then writes the generated tenants, customers, invoices, lines and instalments.
 * Refuses to run when one of the generated tenants already exists.
 */
export async function generateLoad(
  db: Database,
  options: GenerateOptions = {},
): Promise<GenerateResult> {
  const started = performance.now();
  const shape = { ...defaultLoadShape, ...options.shape };
  for (const n of [shape.tenants, shape.customersPerTenant, shape.invoicesPerCustomer]) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`Invalid shape: ${JSON.stringify(shape)}`);
  }
  if (shape.tenants > 9999) throw new Error('At most 9,999 generated tenants');
  await migrate(db);
  const passwordHash = options.passwordHash ?? (await hashPassword(loadPassword));
  const publicUrl = options.publicUrl ?? 'http://localhost:3000';
  const tenantIds = Array.from({ length: shape.tenants }, (_, t) => loadTenantId(t));

  await db.withOwner(async (sql) => {
    const existing = await sql.query<{ id: string }>(
      'SELECT id FROM tenants WHERE id = ANY($1::text[])',
      [tenantIds],
    );
    if (existing.length > 0) {
      throw new Error(`Generated tenants already exist: ${existing.map((r) => r.id).join(', ')}`);
    }
    const tenants = tenantIds.map((_, t) => loadTenant(t, publicUrl));
    const columns = Object.keys(tenants[0] ?? {});
    await insertRows(
      sql,
      'tenants',
      columns,
      tenants.map((t) => Object.values(t)),
    );
  });

  const batch =
    options.batchCustomers ?? Math.max(1, Math.floor(20_000 / shape.invoicesPerCustomer));
  // Tenants take turns, so that transactions in flight at once write different index ranges.
  const jobs: Job[] = [];
  for (let from = 0; from < shape.customersPerTenant; from += batch) {
    for (let t = 0; t < shape.tenants; t++) {
      jobs.push({ tenant: t, from, to: Math.min(from + batch, shape.customersPerTenant) });
    }
  }
  const totals = { customers: 0, invoices: 0, lines: 0, instalments: 0 };
  const ofInvoices = shape.tenants * shape.customersPerTenant * shape.invoicesPerCustomer;
  const run = async (job: Job) => {
    const rows = loadRows(shape, job.tenant, job.from, job.to, passwordHash);
    await db.withOwner(async (sql) => {
      // Losing the last batches in a crash only means generating again: no need to wait for disk.
      if (db.kind === 'postgres') await sql.query('SET LOCAL synchronous_commit = off');
      await insertLoadRows(sql, rows);
    });
    totals.customers += rows.customers.length;
    totals.invoices += rows.invoices.length;
    totals.lines += rows.invoice_lines.length;
    totals.instalments += rows.instalments.length;
    options.onProgress?.({ customers: totals.customers, invoices: totals.invoices, ofInvoices });
  };
  const analyze = () =>
    db.withOwner((sql) =>
      sql.exec('ANALYZE customers; ANALYZE invoices; ANALYZE invoice_lines; ANALYZE instalments;'),
    );

  // The foreign-key checks' plans are made for the tables' statistics when first used: planned on
  // empty tables, they made every later batch several times slower. A few customers first, then
  // statistics (autovacuum may be off, and PGlite has none), then the rest.
  const first = jobs.shift();
  if (first) {
    const warmUp = Math.min(first.to, first.from + 10);
    await run({ ...first, to: warmUp });
    await analyze();
    if (warmUp < first.to) jobs.unshift({ ...first, from: warmUp });
  }
  const concurrency = db.kind === 'postgres' ? Math.max(1, options.concurrency ?? 2) : 1;
  const worker = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await run(job);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  // Fresh statistics for the whole volume, so that the planner sees it at once.
  await analyze();
  return {
    shape,
    tenants: shape.tenants,
    ...totals,
    seconds: (performance.now() - started) / 1000,
  };
}
