import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './lib/processes.ts';
import { fixedRateFloor, nodeHttpClientSuffix, type CpuPerRequest } from './api.ts';
import { coreLine, type CoreUse } from './isolation.ts';
import { round } from './lib/stats.ts';
import type { BenchResults } from './run.ts';

const resultsDir = join(repoRoot, 'bench/results');
const readme = join(repoRoot, 'bench/README.md');
const start = '<!-- latest-results:start -->';
const end = '<!-- latest-results:end -->';

const n = (value: number | undefined, digits = 0) =>
  value === undefined || Number.isNaN(value)
    ? '—'
    : value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const x = (value: number | undefined) => (value === undefined ? '—' : `${n(value, 2)}x`);
const kib = (bytes: number) => `${n(bytes / 1024, 1)} KiB`;

/** The markdown tables of one run. */
export function toMarkdown(r: BenchResults): string {
  const out: string[] = [];
  const day = r.date.slice(0, 10);
  out.push(
    `Run of ${day}${r.partial ? ' (partial)' : ''}: ${r.machine.cpus} cores, Node ${r.machine.node}` +
      `${r.machine.postgres ? `, PostgreSQL ${r.machine.postgres}` : ''}` +
      `${r.machine.autogroups === undefined || r.machine.autogroups === null ? '' : `, autogroups ${r.machine.autogroups ? 'on' : 'off'}`}; load average ` +
      `${n(r.machine.loadAverage.start, 1)} at the start, ${n(r.machine.loadAverage.end, 1)} at the end; ` +
      `${Math.round(r.seconds / 60)} min in all.`,
    '',
  );

  if (r.api) {
    const { api } = r;
    const s = api.dataset.shape;
    const minimal = api.throughput['fastify + pg']?.median;
    out.push(
      `**API** on PostgreSQL, ${n(api.dataset.invoices)} invoices (${s.tenants} tenants x ` +
        `${n(s.customersPerTenant)} customers x ${s.invoicesPerCustomer}); autocannon, ` +
        `${api.settings.connections} connections, ${api.settings.seconds} s, median of ${api.settings.rounds} ` +
        `(rounds interleaved).`,
      '',
      '| Target | req/s | runs | vs minimal Fastify + pg |',
      '|---|--:|---|--:|',
    );
    const labels: Record<string, string> = {
      'node:http + pg': 'baseline: node:http + pg',
      'fastify + pg': 'baseline: minimal Fastify + pg',
      'fastify + pg prepared': 'baseline: minimal Fastify + pg, the query as a prepared statement',
      'fastify + pg /payments':
        "baseline: minimal Fastify + pg, the query of `/payments` (its floor, not `/invoices`')",
      'fastify + pg /payments-prepared': '… the same, the query as a prepared statement',
      'fastify + pg /tx':
        "… + the portal's data path (readTenant: role, RLS, prepared statement, one round trip)",
      'fastify + pg /tx-3rt': '… the same as a three-round-trip transaction, unprepared (before)',
      'fastify + pg /tx-auth': '… + bearer token check (on /tx)',
      'fastify + pg /tx-auth-zod': '… + zod validation and serialisation',
    };
    for (const [name, t] of Object.entries(api.throughput)) {
      out.push(
        `| ${labels[name] ?? `portal \`${name}\``} | ${n(t.median)} | ${t.runs.map((v) => n(v)).join(', ')} | ${minimal ? x(t.median / minimal) : '—'} |`,
      );
    }
    if (api.pglite) {
      out.push(
        `| baseline: minimal Fastify + PGlite, same data (its floor) | ${n(api.pglite.floor.median)} | ${api.pglite.floor.runs.map((v) => n(v)).join(', ')} | — |`,
        `| portal \`/invoices\` on PGlite (${n(api.pglite.shape.tenants * api.pglite.shape.customersPerTenant * api.pglite.shape.invoicesPerCustomer)} invoices) | ${n(api.pglite.throughput.median)} | ${api.pglite.throughput.runs.map((v) => n(v)).join(', ')} | ${x(api.pglite.ratioToFloor)} of its PGlite floor (${x(api.pglite.ratioToPostgres)} of PostgreSQL) |`,
      );
    }
    const prepared = api.throughput['fastify + pg prepared']?.median;
    const portalList = api.throughput['/invoices']?.median;
    if (prepared && portalList) {
      out.push(
        '',
        `The budget compares \`/invoices\` with the minimal route as such a route is usually written ` +
          `(the query unnamed, so parsed and planned on every request); the portal prepares its reads. ` +
          `Against the same route with its query prepared too, \`/invoices\` is ${x(portalList / prepared)}: ` +
          `what auth, row-level security, validation and serialisation cost with the query sent the same way.`,
      );
    }
    const paymentsFloor = api.throughput['fastify + pg /payments']?.median;
    const paymentsPrepared = api.throughput['fastify + pg /payments-prepared']?.median;
    const portalPayments = api.throughput['/payments']?.median;
    if (paymentsFloor && paymentsPrepared && portalPayments) {
      out.push(
        '',
        `\`/payments\` reads more than \`/invoices\` (each paid instalment's receipt): against the minimal ` +
          `route with its own query, it is ${x(portalPayments / paymentsFloor)} ` +
          `(${x(portalPayments / paymentsPrepared)} against that query prepared).`,
      );
    }
    out.push(
      '',
      `Latency at a fixed ${n(api.settings.rate)} req/s (median of ${api.settings.rounds}; ` +
        `the requests go through undici's Pool, the rows marked node:http through the client ` +
        `the bench used until session 9, docs/decisions/016):`,
      '',
    );
    out.push('| Target | p50 | p99 | generator late, p99 | p99 of each round |');
    out.push('|---|--:|--:|--:|---|');
    const fixedLabels: Record<string, string> = {
      [fixedRateFloor]:
        "floor: bare node:http `GET /health`, no database (the generator's own tail)",
      'fastify + pg': 'baseline: minimal Fastify + pg',
      '/invoices': 'portal `/invoices`',
      [`fastify + pg${nodeHttpClientSuffix}`]: 'baseline: minimal Fastify + pg, node:http client',
      [`/invoices${nodeHttpClientSuffix}`]: 'portal `/invoices`, node:http client',
    };
    for (const [name, f] of Object.entries(api.fixedRate)) {
      out.push(
        `| ${fixedLabels[name] ?? `portal \`${name}\``} | ${n(f.medianP50, 1)} ms | ${n(f.medianP99, 1)} ms | ${n(f.medianLateP99, 1)} ms | ${f.p99.map((v) => n(v, 1)).join(', ')} |`,
      );
    }
    const cpu = api.cpuPerRequest ?? {};
    const cpuFloor = cpu['fastify + pg prepared'];
    if (cpuFloor && cpu['/invoices']) {
      const total = (c: CpuPerRequest) =>
        c.medianServer + (c.medianPostgres ?? 0) + c.medianGenerator;
      const cpuLabels: Record<string, string> = {
        'fastify + pg prepared': 'baseline: minimal Fastify + pg, query prepared',
        'fastify + pg /tx': "… + the portal's data path (/tx)",
        'fastify + pg /tx-auth-zod': '… + bearer token, zod validation and serialisation',
        '/invoices': 'portal `/invoices`',
      };
      /** One row a target: µs a request for each process, and the total against `floor`'s. */
      const cpuTable = (entries: Record<string, CpuPerRequest>, floor: CpuPerRequest) => {
        out.push(
          '',
          '| Target | server | PostgreSQL | generator | total | total vs the prepared floor |',
          '|---|--:|--:|--:|--:|--:|',
        );
        for (const [name, c] of Object.entries(entries)) {
          out.push(
            `| ${cpuLabels[name] ?? `portal \`${name}\``} | ${n(c.medianServer)} | ${c.medianPostgres === null ? '—' : n(c.medianPostgres)} | ${n(c.medianGenerator)} | ${n(total(c))} | ${x(total(c) / total(floor))} |`,
          );
        }
      };
      out.push(
        '',
        `CPU time per request at the same fixed ${n(api.settings.rate)} req/s (median of ` +
          `${cpuFloor.server.length}; µs, from the kernel's accounting: the server process with all its threads, ` +
          `every PostgreSQL process, the generator):`,
      );
      cpuTable(cpu, cpuFloor);
      const portalCpu = cpu['/invoices'] as CpuPerRequest;
      const rung = cpu['fastify + pg /tx-auth-zod'];
      out.push(
        '',
        `The three share the machine's 2 cores, so a saturated run's throughput follows the total: ` +
          `by CPU the portal can serve ${x(total(cpuFloor) / total(portalCpu))} of the prepared floor's requests ` +
          `(the throughput runs above: ${prepared && portalList ? x(portalList / prepared) : '—'}).` +
          (rung
            ? ` Its server process spends ${n(portalCpu.medianServer - rung.medianServer)} µs a request more than ` +
              `the last rung of the ladder, which has the same data path, token check and zod schemas: ` +
              `the portal's plugin tree (tenant lookup, origin check, input guard, security headers, ` +
              `compression negotiation, request id and log context, metrics).`
            : ''),
      );
      const saturated = api.saturatedCpuPerRequest ?? {};
      const saturatedFloor = saturated['fastify + pg prepared'];
      const saturatedPortal = saturated['/invoices'];
      if (saturatedFloor && saturatedPortal) {
        out.push(
          '',
          `The same accounting during the throughput runs, saturated (median of ${saturatedFloor.server.length}; ` +
            `the generator is autocannon in the bench's own process):`,
        );
        cpuTable(saturated, saturatedFloor);
        out.push(
          '',
          `Saturated, by CPU the portal serves ${x(total(saturatedFloor) / total(saturatedPortal))} of the ` +
            `prepared floor's requests; its server process ${x(saturatedPortal.medianServer / saturatedFloor.medianServer)} ` +
            `the floor's time a request (below saturation: ${x(portalCpu.medianServer / cpuFloor.medianServer)}).`,
        );
      }
    }
    const d = api.diagnosis;
    out.push(
      '',
      `Per request, measured alone: token check ${n(d.microseconds.verifyToken, 1)} µs for a token seen ` +
        `before (first sight: ${n(d.microseconds.verifyTokenFirst, 1)} µs with jose as the portal calls it, key imported ` +
        `once ${n(d.microseconds.verifyTokenImportedKey, 1)} µs, node:crypto HMAC ${n(d.microseconds.verifyTokenNodeHmac, 1)} µs); body validation ` +
        `${n(d.microseconds.validateBody, 1)} µs; answer through its zod schema ${n(d.microseconds.serializeWithSchema, 1)} µs ` +
        `(JSON.stringify alone ${n(d.microseconds.serializePlain, 1)} µs); security headers as ` +
        `@fastify/helmet sets them ${n(d.microseconds.helmetPerRequest, 1)} µs (helmet built once ` +
        `${n(d.microseconds.helmetPrebuilt, 1)} µs); ` +
        `the page query alone ` +
        `${n(d.sequentialMs.plainQuery, 3)} ms vs inside withTenant ${n(d.sequentialMs.withTenant, 3)} ms ` +
        `(${d.roundTrips.withTenant} round trips instead of ${d.roundTrips.plainQuery}); on the server, planning ` +
        `${n(d.explain.planningMs, 3)} ms and execution ${n(d.explain.executionMs, 3)} ms.`,
      '',
      `The page query's plan, as the portal runs it (application role, tenant set, row-level security), with ` +
        `${n(api.dataset.invoices)} invoices in the table:`,
      '',
      '```',
      d.explain.plan,
      '```',
      '',
    );
    if (d.profile) {
      const list = (m: Record<string, number>, k = 8) =>
        Object.entries(m)
          .slice(0, k)
          .map(([name, share]) => `${name} ${n(share, 1)}%`)
          .join(', ');
      // Inclusive shares only mean something for libraries that call back into nothing else:
      // a hook runner's frame sits under the next hook's work too.
      const leaves = [
        'jose',
        'pg',
        'pg-protocol',
        'zod',
        'fastify-type-provider-zod',
        'helmet',
        'pino',
      ];
      const inclusive = Object.fromEntries(
        leaves
          .filter((k) => d.profile?.inclusive[k] !== undefined)
          .map((k) => [k, d.profile?.inclusive[k] ?? 0]),
      );
      out.push(
        `CPU profile of the portal's main thread during one \`/invoices\` load run ` +
          `(${n(d.profile.busyMs)} ms busy). Own code: ${list(d.profile.self, 10)}. ` +
          `Libraries with what they call: ${list(inclusive)}. Top functions: ` +
          `${d.profile.topFunctions
            .slice(0, 8)
            .map((f) => `${f.name} ${n(f.share, 1)}%`)
            .join(', ')}.`,
        '',
      );
    }
  }

  if (r.pdf) {
    const { pdf } = r;
    out.push(
      `**Invoice PDF**, ${pdf.invoices} invoices of the data set, call to last byte:`,
      '',
      '| Document | p50 | p99 | bytes |',
      '|---|--:|--:|--:|',
      `| portal renderInvoicePdf | ${n(pdf.portal.p50, 2)} ms | ${n(pdf.portal.p99, 2)} ms | ${n(pdf.portal.meanBytes)} |`,
      `| baseline: bare pdfkit, same text | ${n(pdf.bare.p50, 2)} ms | ${n(pdf.bare.p99, 2)} ms | ${n(pdf.bare.meanBytes)} |`,
      ...Object.entries(pdf.diagnosis).map(
        ([name, v]) => `| ${name} | ${n(v.p50, 2)} ms | ${n(v.p99, 2)} ms | ${n(v.meanBytes)} |`,
      ),
      '',
      `Portal / bare p50: ${x(pdf.ratioP50)}. CPU profile of the portal's renders: own code ` +
        `${Object.entries(pdf.profile.self)
          .slice(0, 8)
          .map(([k, v]) => `${k} ${n(v, 1)}%`)
          .join(', ')}; top functions ${pdf.profile.topFunctions
          .slice(0, 8)
          .map((f) => `${f.name} ${n(f.share, 1)}%`)
          .join(', ')}.`,
      '',
    );
  }

  if (r.isolation) {
    const { isolation: iso } = r;
    const h = iso.heavy;
    out.push(
      `**Isolation**: \`/invoices\` of tenant load01 at a fixed ${n(iso.settings.rate)} req/s, ` +
        `${iso.settings.seconds} s a run, median of ${iso.settings.rounds} (alone and loaded in turn), ` +
        `alone and while tenant load02 downloads PDFs of ${iso.settings.pdfLines}-line invoices ` +
        `(${iso.settings.pdfDownloaders} at a time) and ingests batches of ${n(iso.settings.batchInvoices)} invoices, one after another` +
        (iso.settings.heavyKinds === 'both'
          ? ''
          : ` (only the ${iso.settings.heavyKinds === 'pdf' ? 'PDFs' : 'batches'} this run)`) +
        (iso.settings.split
          ? ', the heavy work sent to a second portal process on the same database (--isolation-split):'
          : ':'),
      '',
      '| `/invoices` of load01 | p50 | p99 | p99 of each round |',
      '|---|--:|--:|---|',
      `| alone | ${n(iso.alone.medianP50, 1)} ms | ${n(iso.alone.medianP99, 1)} ms | ${iso.alone.p99.map((v) => n(v, 1)).join(', ')} |`,
      `| beside load02's PDFs and batches | ${n(iso.loaded.medianP50, 1)} ms | ${n(iso.loaded.medianP99, 1)} ms | ${iso.loaded.p99.map((v) => n(v, 1)).join(', ')} |`,
      '',
      `p99 beside the heavy work / alone: ${x(iso.ratio)}. Heavy work done meanwhile: ${n(h.pdfs)} PDFs ` +
        `(median ${n(h.pdfMedianMs)} ms each, ${n(h.pdfRefused)} refused with 503), ${n(h.batches)} batches ` +
        `(median ${n(h.batchMedianMs)} ms each).`,
      '',
    );
    if (iso.cores) {
      const total = (c: CoreUse) =>
        round(c.portal + (c.postgres ?? 0) + c.generator + (c.heavyClient ?? 0), 2);
      out.push(
        `Where the 2 cores went (CPU seconds per second of each process, median of the rounds): ` +
          `alone, ${coreLine(iso.cores.alone)} (${total(iso.cores.alone)} in all); beside the heavy ` +
          `work, ${coreLine(iso.cores.loaded)} (${total(iso.cores.loaded)} in all).`,
        '',
      );
    }
  }

  if (r.web) {
    const { web } = r;
    const enc = web.bytes.login.files[0]?.encoding ?? '?';
    out.push(
      `**Web**: JS + CSS bodies Chromium downloaded (${enc}), cold cache:`,
      '',
      '| Page | bytes | files | largest |',
      '|---|--:|--:|---|',
      ...(['login', 'invoices'] as const).map((p) => {
        const b = web.bytes[p];
        const largest = b.files
          .slice(0, 3)
          .map((f) => `${f.url.replace('/assets/', '')} ${kib(f.bytes)}`)
          .join(', ');
        return `| \`/${p}\`${p === 'invoices' ? ' (signed in)' : ''} | ${kib(b.bytes)} | ${b.files.length} | ${largest} |`;
      }),
      ...(web.floor
        ? [
            `| baseline: minimal React 19 login (bench/react-floor) | ${kib(web.floor.bytes.bytes)} | ${web.floor.bytes.files.length} | ${web.floor.bytes.files
              .slice(0, 3)
              .map((f) => `${f.url.replace(/^.*\//, '')} ${kib(f.bytes)}`)
              .join(', ')} |`,
            '',
            `\`/login\` vs the minimal React login: ${x(web.floor.loginRatio)}. Layout shift on \`/login\` (worst Lighthouse run): ${n(web.loginCls, 3)}.`,
          ]
        : []),
      '',
      `Libraries alone (minified, brotli): ${Object.entries(web.libraries)
        .map(([name, bytes]) => `${name} ${kib(bytes)}`)
        .join('; ')}.`,
      '',
      `Lighthouse 12.8, mobile preset, median of ${web.lighthouse.login.runs.length}:`,
      '',
      '| Page | score | LCP | FCP | TBT |',
      '|---|--:|--:|--:|--:|',
      `| \`/login\` | ${n(web.lighthouse.login.score)} | ${n(web.lighthouse.login.lcpMs)} ms | ${n(web.lighthouse.login.fcpMs)} ms | ${n(web.lighthouse.login.tbtMs)} ms |`,
      `| baseline: static HTML of /login, same server | ${n(web.lighthouse.static.score)} | ${n(web.lighthouse.static.lcpMs)} ms | ${n(web.lighthouse.static.fcpMs)} ms | ${n(web.lighthouse.static.tbtMs)} ms |`,
      '',
      `LCP /login vs static: ${x(web.lighthouse.lcpRatio)}. Largest paint on /login: ` +
        `\`${web.lighthouse.login.runs[0]?.lcpElement ?? '?'}\`; longest request chain: ` +
        `${(web.lighthouse.login.runs[0]?.longestChain ?? []).join(' → ')}. On the static page: ` +
        `${(web.lighthouse.static.runs[0]?.longestChain ?? []).join(' → ')}.`,
      '',
    );
  }

  if (r.service) {
    const { service } = r;
    out.push(
      `**Service** (issue 22): \`node apps/api/dist/server.js\` on PostgreSQL, from spawn to the first 200 of a call that reads the database, and resident memory after 3 idle seconds; against a bare Fastify + pg server bundled the same way, ready at its first query; median of ${service.runs}:`,
      '',
      '| | start to ready | idle RSS |',
      '|---|--:|--:|',
      `| portal (compiled) | ${n(service.portal.medianReadyMs)} ms | ${n(service.portal.medianRssMiB, 1)} MiB |`,
      `| floor: Fastify + pg | ${n(service.floor.medianReadyMs)} ms | ${n(service.floor.medianRssMiB, 1)} MiB |`,
      `| ratio | ${x(service.ratios.ready)} | ${x(service.ratios.rss)} |`,
      '',
    );
  }
  if (r.startup) {
    const { startup } = r;
    out.push(
      `**Start-up** (\`npm start\` without the build, embedded database already migrated), median of ${startup.readyMs.runs.length}:`,
      '',
      '| | first 200 | idle RSS |',
      '|---|--:|--:|',
      `| portal (tsx + server, Redsys simulator on) | ${n(startup.readyMs.median)} ms | ${n(startup.idleRssMiB.median, 1)} MiB |`,
      `| baseline: bare node:http | ${n(startup.baseline.readyMs)} ms | ${n(startup.baseline.idleRssMiB, 1)} MiB |`,
      `| ratio | ${x(startup.ratios.ready)} | ${x(startup.ratios.rss)} |`,
      '',
    );
  }

  for (const [section, error] of Object.entries(r.errors)) {
    out.push(`**${section}: FAILED** — ${error.split('\n')[0]}`, '');
  }

  if (r.budgets.length > 0) {
    out.push(
      '**Budgets** (issues 6, 20, 21 and 22):',
      '',
      '| Budget | value | limit | |',
      '|---|--:|--:|---|',
    );
    for (const b of r.budgets) {
      const unit = b.unit === 'x' ? 'x' : b.unit ? ` ${b.unit}` : '';
      out.push(
        `| ${b.name} | ${n(b.value, b.unit === 'x' ? 2 : b.unit ? 1 : b.limit === 0 ? 3 : 1)}${unit} | ${b.kind === 'min' ? '≥' : '≤'} ${n(b.limit, b.unit === 'x' ? 1 : 0)}${unit} | ${b.pass ? 'pass' : '**MISSED**'} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}

/**
 * Writes bench/results/<date>.{json,md} (`-2`, `-3`… for a day's later full runs, which the
 * decisions and the README may cite; a partial run overwrites `<date>-partial`); a full run also
 * refreshes the README's table.
 */
export function writeResults(r: BenchResults): { files: string[]; table: string; readme: boolean } {
  mkdirSync(resultsDir, { recursive: true });
  const day = join(resultsDir, r.date.slice(0, 10));
  let base = r.partial ? `${day}-partial` : day;
  for (let n = 2; !r.partial && existsSync(`${base}.json`); n++) base = `${day}-${n}`;
  const table = toMarkdown(r);
  writeFileSync(`${base}.json`, `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync(`${base}.md`, `# Benchmark results\n\n${table}`);
  let updated = false;
  if (!r.partial && existsSync(readme)) {
    const text = readFileSync(readme, 'utf8');
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from >= 0 && to > from) {
      writeFileSync(readme, `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`);
      updated = true;
    }
  }
  return {
    files: [`${base}.json`, `${base}.md`].map((f) => f.slice(repoRoot.length)),
    table,
    readme: updated,
  };
}
