import { describe, expect, it } from 'vitest';
import { instalmentMethodKind } from './method-kind.ts';

describe('instalmentMethodKind', () => {
  it.each([
    ['Domiciliación bancaria', 'direct_debit'],
    ['Domiciliación', 'direct_debit'],
    ['  DOMICILIACION  BANCARIA ', 'direct_debit'],
    ['Recibo domiciliado', 'direct_debit'],
    ['Rebut domiciliat', 'direct_debit'],
    ['Rebut bancari', 'direct_debit'],
    ['Càrrec en compte', 'direct_debit'],
    ['Cargo en cuenta', 'direct_debit'],
    ['Recibo bancario', 'direct_debit'],
    ['Tarjeta', 'card'],
    ['Transferencia', 'bank_transfer'],
    ['Transferencia bancaria', 'bank_transfer'],
    ['Efectivo', 'cash'],
    ['Bizum', 'other'],
    ['', 'other'],
    ['Cheque', 'other'],
  ])('%j is %s', (text, kind) => expect(instalmentMethodKind(text)).toBe(kind));
});
