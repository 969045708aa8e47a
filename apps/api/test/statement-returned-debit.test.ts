import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIso } from '../src/lib/dates.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { statementCsv } from './statement-csv.ts';

/*
 * A direct debit collected in June and returned by the bank in July rewrote June's statement.
 *
 * What was wrong: a return makes the instalment `returned` and clears its `paid_date`; the
 * statement (documents/repository.ts `statement`) credited only the instalments `paid` now, on
 * their `paid_date`. So June's collection vanished from June after the fact: June's closing
 * balance changed once the month was closed (a statement already sent to an accountant no longer
 * matched the portal's), and July opened owing as if June had never collected, with no line
 * saying why.
 *
 * Right behaviour: a closed month never changes. June keeps its collection (on its day); July
 * shows the return, a charge of what the collection had paid, on the return's day, and the bank's
 * fee where the tenant charges it, as the balance does; June's closing is July's opening, and the
 * statement moves with `GET /balance`. A later payment of the returned instalment (collected again
 * by the provider, or paid by card in the portal) is a new credit in its own month, and nothing is
 * counted twice.
 */

type Csv = Awaited<ReturnType<typeof statementCsv>>;

describe.each(engines())('a returned direct debit on the statement on $name', (engine) => {
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    await fixture.chargeReturnFees();
  });
  afterAll(async () => fixture.close());

  const statement = (from: string, to: string) => statementCsv(fixture.app, fixture.me, from, to);
  const month = (yyyymm: string) => {
    const last = new Date(Date.UTC(Number(yyyymm.slice(0, 4)), Number(yyyymm.slice(4, 6)), 0));
    return statement(`${yyyymm}01`, `${yyyymm}${String(last.getUTCDate()).padStart(2, '0')}`);
  };
  const today = () => todayIso().replace(/-/g, '');
  /** What the customer owes (`GET /balance`), in cents. */
  const outstanding = async () =>
    Math.round(
      (await fixture.me.get('/balance')).json<{ outstanding: number }>().outstanding * 100,
    );
  /** The closing of a statement ending today, less the balance: the same before and after. */
  const statementLessBalance = async () => {
    const year = Number(today().slice(0, 4));
    const recent = await statement(`${year - 1}0101`, today());
    return recent.closing - (await outstanding());
  };
  const movementsOf = (csv: Csv, id: string) => csv.movements.filter(([ref]) => ref === id);

  /** A 30,25 € invoice of `yyyy`-06-10 whose instalment the provider says was debited on the 20th. */
  async function collectedInJune(id: string, yyyy: string) {
    const put = await fixture.putInvoice(id, 3025, {
      invoiceDate: `${yyyy}-06-10`,
      dueDate: `${yyyy}-06-20`,
      method: 'Domiciliación',
      paidDate: `${yyyy}-06-20`,
    });
    expect(put.statusCode, put.body).toBe(200);
    const item = await fixture.instalmentOf(id);
    if (!item) throw new Error('no instalment');
    return item;
  }
  const returnDebit = async (id: string, date: string, feeCents: number) => {
    const res = await fixture.admin('POST', '/instalments/returns', {
      returns: [
        { invoice_id: id, seq: 1, return_date: date, reason_code: 'AM04', fee_cents: feeCents },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const collectAgain = async (id: string, date: string) => {
    const res = await fixture.admin('POST', '/instalments/status', {
      changes: [{ invoice_id: id, seq: 1, status: 'paid', paid_date: date }],
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** One batch of `POST /admin/instalments/returns` (seq 1 of each invoice, reason AM04). */
  const reportReturns = async (...rs: { id: string; date: string; fee: number }[]) => {
    const res = await fixture.admin('POST', '/instalments/returns', {
      returns: rs.map((r) => ({
        invoice_id: r.id,
        seq: 1,
        return_date: r.date,
        reason_code: 'AM04',
        fee_cents: r.fee,
      })),
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const changeStatus = async (change: Record<string, unknown>) => {
    const res = await fixture.admin('POST', '/instalments/status', { changes: [change] });
    expect(res.statusCode, res.body).toBe(200);
  };
  const setChargeReturnFee = (on: boolean) =>
    fixture.db.withOwner((sql) =>
      sql.query(`UPDATE tenants SET charge_return_fee = $1 WHERE id = 'demo'`, [on]),
    );

  /** A 30,25 € invoice of `invoiceDate`, due far ahead, paid today by card in the portal. */
  async function paidByCardToday(id: string, invoiceDate: string) {
    const put = await fixture.putInvoice(id, 3025, {
      invoiceDate,
      dueDate: '2099-06-20',
      method: 'Domiciliación',
    });
    expect(put.statusCode, put.body).toBe(200);
    const item = await fixture.instalmentOf(id);
    const started = await fixture.me.post('/redsys/init-payment', {
      amount: 30.25,
      payment_ids: [item?.id],
    });
    expect(started.statusCode, started.body).toBe(200);
    await fixture.payStarted(started);
    expect((await fixture.instalmentOf(id))?.status).toBe('paid');
  }

  it('keeps June as it was and shows the return in July', async () => {
    const id = 'RDS-JUNE-JULY';
    await collectedInJune(id, '2012');
    const juneBefore = await month('201206');
    // Control: June charges the invoice and credits its collection.
    expect(juneBefore.movements).toEqual([
      [id, 3025, 0],
      [id, 0, 3025],
    ]);
    const gapBefore = await statementLessBalance();
    const owedBefore = await outstanding();

    await returnDebit(id, '2012-07-09', 400);

    const juneAfter = await month('201206');
    const july = await month('201207');
    // Before: June lost its collection (closing 3025 higher) and July showed only the fee.
    expect(juneAfter).toEqual(juneBefore);
    expect(july.opening).toBe(juneAfter.closing);
    // The return re-adds what the collection paid, and the bank's fee, on the return's day.
    expect(july.movements).toEqual([
      [id, 3025, 0],
      [id, 400, 0],
    ]);
    expect(july.closing).toBe(july.opening + 3425);
    // The portal asks for the same: the instalment and its fee.
    expect((await outstanding()) - owedBefore).toBe(3425);
    expect(await statementLessBalance()).toBe(gapBefore);
  });

  it('shows a debit collected again in August as a new collection, and a card payment after a second return', async () => {
    const id = 'RDS-AUGUST';
    await collectedInJune(id, '2013');
    await returnDebit(id, '2013-07-09', 400);
    const june = await month('201306');
    const july = await month('201307');
    expect(movementsOf(july, id)).toEqual([
      [id, 3025, 0],
      [id, 400, 0],
    ]);
    const gapBefore = await statementLessBalance();

    // The provider presents the debit again and the bank collects it on 20 August.
    await collectAgain(id, '2013-08-20');
    const august = await month('201308');
    // Before: July lost its fee (the fee owed until August vanished from July).
    expect(await month('201306')).toEqual(june);
    expect(await month('201307')).toEqual(july);
    expect(august.opening).toBe(july.closing);
    // The collection pays the instalment and the fee the portal asked with it: nothing is owed.
    expect(august.movements).toEqual([[id, 0, 3425]]);
    expect(august.closing).toBe(august.opening - 3425);
    expect(await statementLessBalance()).toBe(gapBefore);

    // Returned again in September, then paid by card in the portal, fee included.
    await returnDebit(id, '2013-09-10', 300);
    const september = await month('201309');
    expect(await month('201308')).toEqual(august);
    expect(september.movements).toEqual([
      [id, 3025, 0],
      [id, 300, 0],
    ]);
    const item = await fixture.instalmentOf(id);
    const started = await fixture.me.post('/redsys/init-payment', {
      amount: 33.25,
      payment_ids: [item?.id],
    });
    expect(started.statusCode, started.body).toBe(200);
    await fixture.payStarted(started);
    expect((await fixture.instalmentOf(id))?.status).toBe('paid');

    for (const [yyyymm, before] of [
      ['201306', june],
      ['201307', july],
      ['201308', august],
      ['201309', september],
    ] as const)
      expect(await month(yyyymm), yyyymm).toEqual(before);
    const paidToday = await statement(today(), today());
    expect(movementsOf(paidToday, id)).toEqual([[id, 0, 3325]]);
    expect(await statementLessBalance()).toBe(gapBefore);
  });

  it('refuses the return of an instalment paid by card in the portal, and its month stays', async () => {
    const id = 'RDS-CARD';
    await paidByCardToday(id, '2014-06-10');
    const before = await statement(today(), today());
    expect(movementsOf(before, id)).toEqual([[id, 0, 3025]]);

    // The debit of it that comes back undid the debit, never the card payment (session 36).
    const res = await fixture.admin('POST', '/instalments/returns', {
      returns: [
        { invoice_id: id, seq: 1, return_date: todayIso(), reason_code: 'MD06', fee_cents: 400 },
      ],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ errors: { 'returns.0': ['instalment_locked'] } });
    expect(await statement(today(), today())).toEqual(before);
  });

  it('charges only the fee for the return of a debit never reported collected', async () => {
    const id = 'RDS-NEVER-COLLECTED';
    const put = await fixture.putInvoice(id, 3025, {
      invoiceDate: '2015-06-10',
      dueDate: '2015-06-20',
      method: 'Domiciliación',
    });
    expect(put.statusCode, put.body).toBe(200);
    const june = await month('201506');
    await returnDebit(id, '2015-07-09', 400);
    expect(await month('201506')).toEqual(june);
    // Owed since June: the return re-adds nothing, only its fee is new.
    expect((await month('201507')).movements).toEqual([[id, 400, 0]]);
  });

  it('adds nothing for a return dated before the collection it came after', async () => {
    const id = 'RDS-STALE';
    await collectedInJune(id, '2016');
    const june = await month('201606');
    // The bank's file of an earlier presentation: recorded, but it undoes nothing (session 39).
    await returnDebit(id, '2016-06-05', 400);
    expect((await fixture.instalmentOf(id))?.status).toBe('paid');
    expect(await month('201606')).toEqual(june);
  });

  it('keeps the collection when the back office reports the return (status returned)', async () => {
    const id = 'RDS-STATUS';
    await collectedInJune(id, '2017');
    const june = await month('201706');
    const res = await fixture.admin('POST', '/instalments/status', {
      changes: [{ invoice_id: id, seq: 1, status: 'returned', return_fee_cents: 250 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await month('201706')).toEqual(june);
    // Dated the day of the call.
    expect(movementsOf(await statement(today(), today()), id)).toEqual([
      [id, 3025, 0],
      [id, 250, 0],
    ]);
  });

  /*
   * Session 40 review: one batch naming two returns of the same debit (a July one and a September
   * one: an ERP catching up on two bank files) recorded June's collection on BOTH returns
   * (`applyReturns` saw the instalment paid on June 20 for each), so the statement credited June
   * 20 twice: June's closing dropped by 30,25 € after June was closed. Only the earliest new
   * return undid June's collection.
   */
  it('credits June once when one batch reports two returns of the same debit', async () => {
    const id = 'RDS-TWO-IN-ONE';
    await collectedInJune(id, '2011');
    const june = await month('201106');
    expect(movementsOf(june, id)).toEqual([
      [id, 3025, 0],
      [id, 0, 3025],
    ]);

    await reportReturns({ id, date: '2011-07-09', fee: 0 }, { id, date: '2011-09-12', fee: 0 });

    expect(await month('201106')).toEqual(june);
  });

  /*
   * Session 40 review: the fee of a return is charged on the return's day, but the statement read
   * it from the instalment's state today (`chargedFeeSql`: only while `returned`). The provider
   * presenting the debit again (`pending`, docs/ingestion.md) took July's fee out of a closed July,
   * and its later collection paid nothing (`recordFeesCollected` found no fee). The fee stays
   * owed until a payment pays it, and that payment credits it in its own month.
   */
  it('keeps the fee charged in July when the debit is presented again and collected', async () => {
    const id = 'RDS-REPRESENTED';
    await collectedInJune(id, '2018');
    await reportReturns({ id, date: '2018-07-09', fee: 400 });
    const july = await month('201807');
    expect(movementsOf(july, id)).toEqual([
      [id, 3025, 0],
      [id, 400, 0],
    ]);
    const gap = await statementLessBalance();

    // August: the provider presents the debit again, then the bank collects it.
    await changeStatus({ invoice_id: id, seq: 1, status: 'pending' });
    expect(await month('201807'), 'July after the re-presentation').toEqual(july);
    expect(await statementLessBalance(), 'the balance after the re-presentation').toBe(gap);
    await changeStatus({ invoice_id: id, seq: 1, status: 'paid', paid_date: '2018-08-20' });
    expect(await month('201807'), 'July after the new collection').toEqual(july);
    // The collection paid the instalment and the fee, on its day.
    expect(movementsOf(await month('201808'), id)).toEqual([[id, 0, 3425]]);
    expect(await statementLessBalance(), 'the balance after the new collection').toBe(gap);
  });

  /*
   * Session 40 review: whether a return's fee is charged was read from the tenant's setting today,
   * so turning fee charging off (or on) took a fee out of (or put one into) a closed July. It is
   * recorded on the return when the return is recorded (migration 043), what the customer was told.
   */
  it('keeps the fee charged in July when the tenant later stops charging fees', async () => {
    const id = 'RDS-FEES-OFF';
    await collectedInJune(id, '2020');
    await reportReturns({ id, date: '2020-07-09', fee: 400 });
    const july = await month('202007');
    expect(movementsOf(july, id)).toEqual([
      [id, 3025, 0],
      [id, 400, 0],
    ]);
    const owed = await outstanding();
    try {
      await setChargeReturnFee(false);
      expect(await month('202007')).toEqual(july);
      // The portal still asks for the fee it told the customer of.
      expect(await outstanding()).toBe(owed);
    } finally {
      await setChargeReturnFee(true);
    }
  });

  it('adds no fee to a closed July when the tenant starts charging fees later', async () => {
    const id = 'RDS-FEES-ON';
    await collectedInJune(id, '2021');
    await setChargeReturnFee(false);
    // Returned while the tenant does not charge: the customer is told no fee is charged.
    const july = await reportReturns({ id, date: '2021-07-09', fee: 400 })
      .then(async () => ({ csv: await month('202107'), owed: await outstanding() }))
      .finally(() => setChargeReturnFee(true));
    expect(movementsOf(july.csv, id)).toEqual([[id, 3025, 0]]);
    expect(await month('202107')).toEqual(july.csv);
    expect(await outstanding()).toBe(july.owed);
  });
  /*
   * A card payment made in the portal is dated by the gateway's charge (its receipt says so). The
   * status route takes the provider's own `paid` for such an instalment (200), and before session
   * 40 `setStatuses` then overwrote `paid_date` with the provider's date: the statement credited
   * the payment on that date, moving it into another month, possibly closed.
   */
  it('keeps a card payment on its day when the provider reports it paid on another day', async () => {
    const id = 'CARD-PROVIDER-REDATED';
    await paidByCardToday(id, '2026-01-10');
    const paidToday = await statement(today(), today());
    expect(movementsOf(paidToday, id)).toEqual([[id, 0, 3025]]);
    const january = await statement('20260101', '20260131');

    // The provider's back office records the payment with a date of its own.
    const res = await fixture.admin('POST', '/instalments/status', {
      changes: [{ invoice_id: id, seq: 1, status: 'paid', paid_date: '2026-01-31' }],
    });
    expect(res.statusCode, res.body).toBe(200);

    // January was closed without this payment: it must not gain it.
    expect(await statement('20260101', '20260131')).toEqual(january);
    // The payment stays where its receipt puts it.
    expect(await statement(today(), today())).toEqual(paidToday);
  });
});
