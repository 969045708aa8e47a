import { describe, expect, it } from 'vitest';
import { companyReach, websiteLabel } from './company-reach';

const legal = {
  name: 'Club',
  tax_id: 'G28123453',
  address: 'Calle 1',
  contact_email: '',
  privacy_email: 'privacidad@club.test',
  dpo_email: '',
  phone: ' +34 910 000 024 ',
  website: 'https://club.test',
  opening_hours: ' L-V 7:00-22:00 ',
};

describe('companyReach', () => {
  it('gives the mailbox, a tel: link, the website and the hours', () => {
    expect(companyReach(legal)).toEqual({
      email: 'privacidad@club.test',
      phone: { text: '+34 910 000 024', href: 'tel:+34910000024' },
      website: 'https://club.test/',
      hours: 'L-V 7:00-22:00',
    });
  });

  it('leaves out a telephone or website that would not make a safe link', () => {
    const reach = companyReach({
      ...legal,
      phone: 'javascript:alert(1)',
      website: 'javascript:alert(1)',
    });
    expect(reach.phone).toBeNull();
    expect(reach.website).toBeNull();
    expect(companyReach({ ...legal, website: 'http://club.test' }).website).toBeNull();
  });

  it('leaves out what is not set', () => {
    expect(companyReach({ ...legal, phone: '', website: '', opening_hours: '' })).toMatchObject({
      phone: null,
      website: null,
      hours: '',
    });
  });

  it('shows a website without its scheme', () => {
    expect(websiteLabel('https://club.test/')).toBe('club.test');
    expect(websiteLabel('https://club.test/horarios')).toBe('club.test/horarios');
  });
});
