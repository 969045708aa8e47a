-- Notifications created by the events themselves (issue 7): a new invoice, a bank account
-- verified, a request reviewed. Whatever writes the row (the provider's back office, an import,
-- SQL by hand), the customer hears of it, in the customer's language. Payment results are
-- notified by the API itself (modules/payments). Bulk loads (the demo seed, the load generator)
-- set `app.bulk_load` for their transaction and create none.

CREATE FUNCTION portal_notify(
  p_tenant text, p_customer uuid, p_type text, p_link text,
  es_title text, es_message text, ca_title text, ca_message text,
  en_title text, en_message text, eu_title text, eu_message text
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  lang text;
BEGIN
  SELECT language INTO lang FROM customers WHERE tenant_id = p_tenant AND id = p_customer;
  INSERT INTO notifications (tenant_id, customer_id, type, title, message, link)
  VALUES (
    p_tenant, p_customer, p_type,
    CASE lang WHEN 'ca' THEN ca_title WHEN 'en' THEN en_title WHEN 'eu' THEN eu_title ELSE es_title END,
    CASE lang WHEN 'ca' THEN ca_message WHEN 'en' THEN en_message WHEN 'eu' THEN eu_message ELSE es_message END,
    p_link
  );
END $$;

CREATE FUNCTION portal_bulk_load() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('app.bulk_load', true), '') = 'on'
$$;

CREATE FUNCTION notify_new_invoice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF portal_bulk_load() OR NEW.cancelled THEN RETURN NEW; END IF;
  PERFORM portal_notify(NEW.tenant_id, NEW.customer_id, 'invoice_new', '/invoice-detail/' || NEW.id,
    'Nueva factura disponible', 'Ya puedes consultar la factura ' || NEW.id || '.',
    'Nova factura disponible', 'Ja pots consultar la factura ' || NEW.id || '.',
    'New invoice available', 'Invoice ' || NEW.id || ' is ready to view.',
    'Faktura berria eskuragarri', NEW.id || ' faktura kontsulta dezakezu orain.');
  RETURN NEW;
END $$;

CREATE TRIGGER invoices_notify AFTER INSERT ON invoices
  FOR EACH ROW EXECUTE FUNCTION notify_new_invoice();

CREATE FUNCTION notify_method_verified() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF portal_bulk_load() THEN RETURN NEW; END IF;
  PERFORM portal_notify(NEW.tenant_id, NEW.customer_id, 'method_verified', '/metodos-de-pago',
    'Cuenta verificada', 'Tu cuenta bancaria ' || NEW.alias || ' ya está verificada y activa.',
    'Compte verificat', 'El teu compte bancari ' || NEW.alias || ' ja està verificat i actiu.',
    'Account verified', 'Your bank account ' || NEW.alias || ' is now verified and active.',
    'Kontua egiaztatuta', 'Zure ' || NEW.alias || ' banku-kontua egiaztatuta eta aktibo dago.');
  RETURN NEW;
END $$;

CREATE TRIGGER payment_methods_notify_verified AFTER UPDATE OF status ON payment_methods
  FOR EACH ROW WHEN (OLD.status = 'unverified' AND NEW.status = 'active')
  EXECUTE FUNCTION notify_method_verified();

CREATE FUNCTION notify_request_reviewed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  approved boolean := NEW.status = 'approved';
  main boolean := NEW.kind = 'main_change';
BEGIN
  IF portal_bulk_load() THEN RETURN NEW; END IF;
  PERFORM portal_notify(NEW.tenant_id, NEW.customer_id, 'request_reviewed', '/metodos-de-pago',
    CASE WHEN approved THEN 'Solicitud aprobada' ELSE 'Solicitud rechazada' END,
    CASE WHEN main THEN 'Tu solicitud de cambio del método de pago principal ha sido '
         ELSE 'Tu solicitud de activación de la cuenta bancaria ha sido ' END
      || CASE WHEN approved THEN 'aprobada.' ELSE 'rechazada.' END,
    CASE WHEN approved THEN 'Sol·licitud aprovada' ELSE 'Sol·licitud rebutjada' END,
    CASE WHEN main THEN 'La teva sol·licitud de canvi del mètode de pagament principal ha estat '
         ELSE 'La teva sol·licitud d''activació del compte bancari ha estat ' END
      || CASE WHEN approved THEN 'aprovada.' ELSE 'rebutjada.' END,
    CASE WHEN approved THEN 'Request approved' ELSE 'Request declined' END,
    CASE WHEN main THEN 'Your request to change your main payment method has been '
         ELSE 'Your request to activate your bank account has been ' END
      || CASE WHEN approved THEN 'approved.' ELSE 'declined.' END,
    CASE WHEN approved THEN 'Eskaera onartuta' ELSE 'Eskaera ukatuta' END,
    CASE WHEN main THEN 'Ordainketa-metodo nagusia aldatzeko zure eskaera '
         ELSE 'Banku-kontua aktibatzeko zure eskaera ' END
      || CASE WHEN approved THEN 'onartu da.' ELSE 'ukatu da.' END);
  RETURN NEW;
END $$;

CREATE TRIGGER payment_method_requests_notify AFTER UPDATE OF status ON payment_method_requests
  FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected'))
  EXECUTE FUNCTION notify_request_reviewed();
