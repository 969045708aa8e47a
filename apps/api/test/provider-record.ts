/**
 * A customer as the provider's PUT /admin/customers sends it, from the portal's profile answer
 * (`GET /user-profile`'s user): what the provider's system holds when it agrees with the portal.
 */
export function providerRecordOf(code: string, p: Record<string, string>) {
  return {
    code,
    email: p.email,
    name: p.name,
    last_name: p.lastName,
    nif: p.nif,
    address: p.address,
    city: p.city,
    country: p.country,
    shipping_cp: p.shipping_cp,
    shipping_province: p.shipping_province,
    shipping_city: p.shipping_city,
    shipping_country: p.shipping_country,
    shipping_address: p.shipping_address,
    phone: p.phone,
    contact_name: p.contact_name,
    invoice_email: p.invoice_email,
    invoice_name: p.invoice_name,
    payment_method_label: p.forma_pago,
    entry_date: p.entry_date,
  };
}
