-- The auto-pay notice is the instalment's notice to the customer who pays it now. The provider may
-- move an invoice to another customer (PUT /admin/invoices) after its notice went out: the new
-- customer gets their own notice before their card is charged (before session 36 the notice sent
-- to the first customer counted for them, and their card was charged unannounced). The auto-pay
-- module moves the row to the new customer when it sends them the notice.
--
-- A grant only: no lock on the table's rows, and the previous release's statements still work.
GRANT UPDATE ON auto_pay_notices TO portal_app;
