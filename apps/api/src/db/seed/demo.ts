import { hash } from '@node-rs/argon2';
import { appPaths } from '@portal/contract/app-paths';
import type { Sql } from '../database.ts';
import { insertRows } from '../insert-rows.ts';
import { spanishIban } from './iban.ts';
import { demoLogoSvg } from './logos.ts';
import { seededRandom, seededUuid } from './random.ts';
import { sepaCreditorCheckDigits } from '@portal/contract/sepa-mandates';

/**
 * The demo data of PRODUCT.md: tenants `1` and `demo`, each with its branding, the demo customer
 * `cliente@demo.test` / `Demo1234!` with five years of monthly invoices in every state, and a
 * second customer. Deterministic for a given day: the invoices are laid out relative to `today` so
 * that the demo always has pending and overdue items.
 */
export const demoPassword = 'Demo1234!';
export const demoEmail = 'cliente@demo.test';
export const secondEmail = 'segundo@demo.test';

/**
 * The public Redsys test merchant (published in Redsys' integration guides; not a secret). Every
 * demo tenant uses it, which is why a notification must be checked against ITS tenant's attempt.
 */
export const redsysPublicTestMerchant = {
  merchantCode: '999008881',
  terminal: '1',
  secretKey: 'sq7HjrUOBfKmC576ILgskD5srU870gJ7',
} as const;

type DemoTenant = {
  id: string;
  companyName: string;
  description: string;
  color: string;
  initials: string;
  legalName: string;
  legalNif: string;
  legalAddress: string;
  /** The data protection officer's mailbox, '' when the tenant has none (the privacy policy says so). */
  dpoEmail: string;
  /** How customers reach it besides e-mail ('' when not set: the company dialog leaves it out). */
  phone: string;
  website: string;
  openingHours: string;
  domain: string;
  concepts: readonly { concept: string; quota: string; cents: number }[];
  baseFee: { concept: string; quota: string; cents: number };
  customerCodePrefix: string;
  /** Redsys Ds_Merchant_PayMethods the club takes besides the card (`z` Bizum); none if absent. */
  redsysPayMethods?: readonly string[];
};

export const demoTenants: readonly DemoTenant[] = [
  {
    id: '1',
    companyName: 'Club Deportivo Las Encinas',
    description:
      'Club deportivo con piscina climatizada, pistas de pádel y escuela de natación para todas las edades.',
    color: '1F7A4D',
    initials: 'LE',
    legalName: 'Club Deportivo Las Encinas',
    legalNif: 'G28123453',
    legalAddress: 'Avenida de las Encinas 24, 28341 Valdemoro (Madrid)',
    dpoEmail: 'dpd@lasencinas.test',
    phone: '+34 910 000 024',
    website: 'https://lasencinas.test',
    openingHours: 'L-V 7:00-22:30 · S-D 9:00-14:00',
    domain: 'lasencinas.test',
    baseFee: { concept: 'Cuota mensual de socio', quota: 'Adulto', cents: 3900 },
    concepts: [
      { concept: 'Alquiler de pista de pádel', quota: 'Hora', cents: 800 },
      { concept: 'Curso de natación', quota: 'Trimestral', cents: 4500 },
      { concept: 'Taquilla', quota: 'Mensual', cents: 500 },
    ],
    customerCodePrefix: 'LE',
  },
  {
    id: 'demo',
    companyName: 'Gimnasio Demo Fitness',
    description: 'Gimnasio con sala de musculación, clases dirigidas y entrenamiento personal.',
    color: '6D28D9',
    initials: 'DF',
    legalName: 'Demo Fitness S.L.',
    legalNif: 'B87654323',
    legalAddress: 'Calle del Deporte 7, 08001 Barcelona',
    dpoEmail: '',
    phone: '+34 930 000 007',
    website: '',
    openingHours: '',
    domain: 'demofitness.test',
    baseFee: { concept: 'Cuota mensual', quota: 'Tarifa completa', cents: 4500 },
    concepts: [
      { concept: 'Entrenamiento personal', quota: 'Sesión', cents: 3000 },
      { concept: 'Clases de yoga', quota: 'Bono 4 clases', cents: 2400 },
      { concept: 'Toalla y taquilla', quota: 'Mensual', cents: 600 },
    ],
    customerCodePrefix: 'DF',
    // Demo Fitness takes Bizum (issue 23, item 5); Las Encinas takes cards only.
    redsysPayMethods: ['C', 'z'],
  },
];

/** The canonical URL of a demo tenant: tenant `1` is the base; others put their label in front. */
function demoTenantUrl(tenantId: string, publicUrl: string): string {
  if (tenantId === '1') return publicUrl;
  const url = new URL(publicUrl);
  url.hostname = `${tenantId}.${url.hostname}`;
  return url.origin;
}

const vatRate = 21;
const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
const addDays = (d: Date, days: number): Date => new Date(d.getTime() + days * 86_400_000);

export type DemoSignInProviders = Partial<
  Record<
    'google' | 'apple' | 'microsoft',
    { issuer: string; client_id: string; client_secret: string }
  >
>;

export async function seedDemo(
  sql: Sql,
  options: { publicUrl: string; today?: Date; signInProviders?: DemoSignInProviders },
): Promise<void> {
  const now = options.today ?? new Date();
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const passwordHash = await hash(demoPassword);
  // Sample history, not events: the rows below are written directly, so they notify nobody and
  // make no webhook event (only the modules' services do, migrations 011 and 018); the demo's
  // notifications are written explicitly.

  for (const [tenantIndex, tenant] of demoTenants.entries()) {
    const random = seededRandom(1000 + tenantIndex);
    const uuid = () => seededUuid(random);
    await sql.query(
      `INSERT INTO tenants (id, company_name, description, primary_color, logo_mime, logo_data,
         canonical_url, legal_name, legal_nif, legal_address, contact_email, privacy_email, mail_from,
         bank_iban, bank_beneficiary, redsys_merchant_code, redsys_terminal, redsys_secret_key,
         redsys_signature_versions, dpo_email, phone, website, opening_hours, test_mode, auto_pay)
       VALUES ($1,$2,$3,$4,'image/svg+xml',$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,
               $20,$21,$22,true,true)`,
      [
        tenant.id,
        tenant.companyName,
        tenant.description,
        tenant.color,
        new TextEncoder().encode(demoLogoSvg(tenant.initials, tenant.color)),
        demoTenantUrl(tenant.id, options.publicUrl),
        tenant.legalName,
        tenant.legalNif,
        tenant.legalAddress,
        `secretaria@${tenant.domain}`,
        `privacidad@${tenant.domain}`,
        `${tenant.companyName} <no-reply@${tenant.domain}>`,
        spanishIban(`2100081361${String(1234567890 + tenantIndex).slice(0, 10)}`),
        tenant.legalName,
        redsysPublicTestMerchant.merchantCode,
        redsysPublicTestMerchant.terminal,
        redsysPublicTestMerchant.secretKey,
        ['HMAC_SHA256_V1', 'HMAC_SHA512_V2'],
        tenant.dpoEmail,
        tenant.phone,
        tenant.website,
        tenant.openingHours,
      ],
    );

    if (tenant.redsysPayMethods) {
      await sql.query(`UPDATE tenants SET redsys_pay_methods = $2 WHERE id = $1`, [
        tenant.id,
        tenant.redsysPayMethods,
      ]);
    }
    // Issue 23, item 6: the demo collects by direct debit: adding a bank account signs a SEPA
    // mandate for the creditor identifier its NIF makes (ES, check digits, ZZZ, NIF).
    await sql.query(`UPDATE tenants SET sepa_creditor_id = $2 WHERE id = $1`, [
      tenant.id,
      `ES${sepaCreditorCheckDigits('ES', tenant.legalNif)}ZZZ${tenant.legalNif}`,
    ]);

    for (const [provider, p] of Object.entries(options.signInProviders ?? {})) {
      await sql.query(
        `INSERT INTO tenant_sign_in_providers (tenant_id, provider, issuer, client_id, client_secret)
         VALUES ($1, $2, $3, $4, $5)`,
        [tenant.id, provider, p.issuer, p.client_id, p.client_secret],
      );
    }

    const people = [
      {
        id: uuid(),
        code: `${tenant.customerCodePrefix}-000123`,
        email: demoEmail,
        name: 'Laura',
        lastName: 'García Martín',
        nif: '12345678Z',
        address: 'Calle Mayor 12, 3º B',
        city: 'Madrid',
        cp: '28013',
        province: 'Madrid',
        phone: '+34 600 123 456',
        months: 60,
      },
      {
        id: uuid(),
        code: `${tenant.customerCodePrefix}-000456`,
        email: secondEmail,
        name: 'Jordi',
        lastName: 'Puig Serra',
        nif: '87654321X',
        address: 'Carrer de Balmes 100, 2n 1a',
        city: 'Barcelona',
        cp: '08008',
        province: 'Barcelona',
        phone: '+34 611 654 321',
        months: 24,
      },
    ];
    await insertRows(
      sql,
      'customers',
      [
        'tenant_id',
        'id',
        'code',
        'email',
        'password_hash',
        'name',
        'last_name',
        'nif',
        'address',
        'city',
        'country',
        'shipping_cp',
        'shipping_province',
        'shipping_city',
        'shipping_country',
        'shipping_address',
        'phone',
        'contact_name',
        'invoice_email',
        'invoice_name',
        'payment_method_label',
        'entry_date',
        'language',
      ],
      people.map((p) => [
        tenant.id,
        p.id,
        p.code,
        p.email,
        passwordHash,
        p.name,
        p.lastName,
        p.nif,
        p.address,
        p.city,
        'España',
        p.cp,
        p.province,
        p.city,
        'España',
        p.address,
        p.phone,
        `${p.name} ${p.lastName}`,
        p.email,
        `${p.name} ${p.lastName}`,
        'Domiciliación bancaria',
        isoDate(new Date(Date.UTC(today.getUTCFullYear() - 5, today.getUTCMonth() - 2, 15))),
        'es',
      ]),
    );

    // Invoices: one a month per customer, numbered per tenant in date order.
    type Row = readonly unknown[];
    const invoices: Row[] = [];
    const lines: Row[] = [];
    const instalments: Row[] = [];
    let number = 0;
    for (let monthsAgo = 59; monthsAgo >= 0; monthsAgo--) {
      const invoiceDate = new Date(
        Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - monthsAgo, 1),
      );
      for (const person of people) {
        if (monthsAgo >= person.months) continue;
        number += 1;
        const id = `F${invoiceDate.getUTCFullYear()}-${String(number).padStart(5, '0')}`;
        const fullName = `${person.name} ${person.lastName}`;
        const invoiceLines = [{ ...tenant.baseFee, quantity: 1 }];
        if (random() < 0.45) {
          const extra =
            tenant.concepts[Math.floor(random() * tenant.concepts.length)] ?? tenant.baseFee;
          invoiceLines.push({ ...extra, quantity: 1 + Math.floor(random() * 4) });
        }
        const base = invoiceLines.reduce((sum, l) => sum + l.cents * l.quantity, 0);
        const vat = Math.round((base * vatRate) / 100);
        const total = base + vat;
        const cancelled = person.months === 60 && monthsAgo === 11;
        invoices.push([
          tenant.id,
          id,
          person.id,
          isoDate(invoiceDate),
          base,
          vat,
          total,
          cancelled,
        ]);
        invoiceLines.forEach((l, i) =>
          lines.push([
            tenant.id,
            id,
            i + 1,
            fullName,
            l.concept,
            l.quota,
            l.quantity,
            l.cents,
            vatRate,
          ]),
        );

        // One instalment, or three for every sixth invoice (and for the partially paid one).
        const split = monthsAgo % 6 === 3 || (person.months === 60 && monthsAgo === 2);
        const parts = split ? 3 : 1;
        const drawn = random() < 0.8 ? 'Domiciliación bancaria' : 'Tarjeta';
        // The month's invoice, due in ten days, is paid by card: what auto-pay with the saved card
        // covers in the demo (issue 23; a direct debit is the bank's to collect).
        const method = monthsAgo === 0 ? 'Tarjeta' : drawn;
        for (let seq = 1; seq <= parts; seq++) {
          const amount =
            seq < parts
              ? Math.floor(total / parts)
              : total - Math.floor(total / parts) * (parts - 1);
          let due = addDays(invoiceDate, 5 + (seq - 1) * 30);
          let status: 'paid' | 'pending' | 'cancelled' = 'paid';
          if (cancelled) status = 'cancelled';
          else if (monthsAgo === 0) {
            // The current month's invoice is pending, due in ten days.
            status = 'pending';
            due = addDays(today, 10);
          } else if (monthsAgo === 1 || (person.months === 60 && monthsAgo === 7))
            status = 'pending';
          else if (person.months === 60 && monthsAgo === 2) status = seq === 1 ? 'paid' : 'pending';
          if (status === 'paid' && due > today) status = 'pending';
          const paidDate =
            status === 'paid' ? isoDate(addDays(due, Math.floor(random() * 3))) : null;
          instalments.push([
            tenant.id,
            uuid(),
            id,
            seq,
            person.id,
            isoDate(due),
            amount,
            method,
            status,
            paidDate,
          ]);
        }
      }
    }
    await insertRows(
      sql,
      'invoices',
      [
        'tenant_id',
        'id',
        'customer_id',
        'invoice_date',
        'base_cents',
        'vat_cents',
        'total_cents',
        'cancelled',
      ],
      invoices,
    );
    await insertRows(
      sql,
      'invoice_lines',
      [
        'tenant_id',
        'invoice_id',
        'line_no',
        'person',
        'concept',
        'quota',
        'quantity',
        'unit_price_cents',
        'vat_rate',
      ],
      lines,
    );
    await insertRows(
      sql,
      'instalments',
      [
        'tenant_id',
        'id',
        'invoice_id',
        'seq',
        'customer_id',
        'due_date',
        'amount_cents',
        'method',
        'status',
        'paid_date',
      ],
      instalments,
    );

    for (const person of people) {
      const fullName = `${person.name} ${person.lastName}`;
      await insertRows(
        sql,
        'payment_methods',
        [
          'tenant_id',
          'id',
          'customer_id',
          'kind',
          'alias',
          'holder',
          'card_brand',
          'card_masked',
          'card_expiry',
          'redsys_reference',
          'iban',
          'nif',
          'entity',
          'status',
          'is_main',
          // The saved card's first operation's scheme id: the demo card can pay by itself.
          'redsys_cof_txnid',
        ],
        [
          [
            tenant.id,
            uuid(),
            person.id,
            'card',
            'Mi tarjeta',
            fullName,
            'VISA',
            '454881******0004',
            '1230',
            `demo${seededUuid(random).replace(/-/g, '').slice(0, 36)}`,
            null,
            null,
            null,
            'active',
            false,
            String(2110222140220 + people.indexOf(person)),
          ],
          [
            tenant.id,
            uuid(),
            person.id,
            'bank_account',
            'Cuenta principal',
            fullName,
            null,
            null,
            null,
            null,
            spanishIban(`21000418${String(4502000513 + people.indexOf(person)).padStart(12, '0')}`),
            person.nif,
            'CaixaBank',
            'active',
            true,
            null,
          ],
        ],
      );
      const notes: [string, string, number, boolean, string | null][] = [
        [
          'Nueva factura disponible',
          'Ya puedes consultar tu factura de este mes.',
          0,
          false,
          appPaths.invoices,
        ],
        [
          'Recordatorio de pago',
          'Tienes un recibo vencido pendiente de pago.',
          2,
          false,
          appPaths.payments,
        ],
        [
          'Cambio de horario',
          'Durante las fiestas locales la instalación abrirá de 9:00 a 14:00.',
          9,
          true,
          null,
        ],
        [
          'Bienvenida',
          `Te damos la bienvenida a la oficina online de ${tenant.companyName}.`,
          40,
          true,
          null,
        ],
      ];
      // One the portal itself would have written: a type with parameters, worded by the web app
      // in the reader's language (the others stand for the organisation's own texts).
      const lastPaid = instalments.findLast((row) => row[4] === person.id && row[8] === 'paid');
      const paidAt = new Date(addDays(today, -1).getTime() + 9.5 * 3_600_000);
      const rows: (readonly unknown[])[] = notes.map(([title, message, daysAgo, read, link]) => {
        // 09:30 that day, but never later than a minute ago: before 09:30, today's note is not
        // from the future (it would stay above every real one written until then).
        const at = new Date(
          Math.min(addDays(today, -daysAgo).getTime() + 9.5 * 3_600_000, now.getTime() - 60_000),
        );
        return [
          tenant.id,
          uuid(),
          person.id,
          'info',
          title,
          message,
          link,
          null,
          at.toISOString(),
          read ? at.toISOString() : null,
        ];
      });
      if (lastPaid) {
        const invoiceId = String(lastPaid[2]);
        rows.push([
          tenant.id,
          uuid(),
          person.id,
          'payment_succeeded',
          null,
          null,
          appPaths.invoiceDetail.href(invoiceId),
          JSON.stringify({
            payment_id: String(lastPaid[1]),
            amount_cents: Number(lastPaid[6]),
            invoices: [invoiceId],
          }),
          paidAt.toISOString(),
          paidAt.toISOString(),
        ]);
      }
      await insertRows(
        sql,
        'notifications',
        [
          'tenant_id',
          'id',
          'customer_id',
          'type',
          'title',
          'message',
          'link',
          'params',
          'created_at',
          'read_at',
        ],
        rows,
      );
    }
  }
}
