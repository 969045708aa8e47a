-- Notifications have one writer (issue 21, CONVENTIONS.md "one writer per table"): the API's
-- notifications module. The triggers of migration 005 wrote texts in the customer's language from
-- SQL; the ingestion module now asks the notifications module, in the same transaction, for the
-- same three events (a new invoice, a bank account verified, a request reviewed), stored as a type
-- with parameters that the web app words in the reader's language (PRODUCT.md).

DROP TRIGGER invoices_notify ON invoices;
DROP TRIGGER payment_methods_notify_verified ON payment_methods;
DROP TRIGGER payment_method_requests_notify ON payment_method_requests;
DROP FUNCTION notify_new_invoice();
DROP FUNCTION notify_method_verified();
DROP FUNCTION notify_request_reviewed();
DROP FUNCTION portal_notify(text, uuid, text, text, text, text, text, text, text, text, text, text);
-- portal_bulk_load() stays: the webhook triggers of migration 006 still honour it.

-- The portal's own notifications carry no text: the organisation's keep theirs (ingestion API).
ALTER TABLE notifications ALTER COLUMN title DROP NOT NULL;
ALTER TABLE notifications ALTER COLUMN message DROP NOT NULL;
ALTER TABLE notifications ADD CONSTRAINT notifications_worded
  CHECK (params IS NOT NULL OR (title IS NOT NULL AND message IS NOT NULL));

-- The rows the triggers wrote get the type's parameters back from their texts, so that they too
-- read in the reader's language; a text that does not match stays as written (shown as is).
UPDATE notifications
   SET params = jsonb_build_object('invoice_id', substring(link FROM '^/invoice-detail/(.+)$'))
 WHERE type = 'invoice_new' AND params IS NULL AND external_id IS NULL
   AND link ~ '^/invoice-detail/.+$';

UPDATE notifications n
   SET params = jsonb_build_object('alias', a.alias)
  FROM (SELECT tenant_id, id, coalesce(
          substring(message FROM '^Tu cuenta bancaria (.*) ya está verificada y activa\.$'),
          substring(message FROM '^El teu compte bancari (.*) ja està verificat i actiu\.$'),
          substring(message FROM '^Your bank account (.*) is now verified and active\.$'),
          substring(message FROM '^Zure (.*) banku-kontua egiaztatuta eta aktibo dago\.$')) AS alias
          FROM notifications
         WHERE type = 'method_verified' AND params IS NULL AND external_id IS NULL) a
 WHERE n.tenant_id = a.tenant_id AND n.id = a.id AND a.alias IS NOT NULL;

UPDATE notifications
   SET params = jsonb_build_object(
         'request', CASE WHEN message ~ '(principal|main payment method|nagusia)'
                         THEN 'main_change' ELSE 'verification' END,
         'answer', CASE WHEN title IN ('Solicitud aprobada', 'Sol·licitud aprovada',
                                        'Request approved', 'Eskaera onartuta')
                        THEN 'approved' ELSE 'rejected' END)
 WHERE type = 'request_reviewed' AND params IS NULL AND external_id IS NULL
   AND title IN ('Solicitud aprobada', 'Sol·licitud aprovada', 'Request approved', 'Eskaera onartuta',
                 'Solicitud rechazada', 'Sol·licitud rebutjada', 'Request declined', 'Eskaera ukatuta');
