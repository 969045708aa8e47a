-- The legal pages (privacy policy) name the tenant's data protection officer when it has one
-- (RGPD art. 37-39; LOPDGDD art. 34 obliges schools, among others): empty means none.
ALTER TABLE tenants ADD COLUMN dpo_email text NOT NULL DEFAULT '';
