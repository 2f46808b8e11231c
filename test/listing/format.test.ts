import { MESSAGES } from '../../src/listing/languages.ts';
import { describe, expect, it } from 'vitest';
import {
  counted,
  formatEngineRange,
  formatPrice,
  formatPriceRange,
  formatRange,
  formatTransmissions,
  initialOf,
  splitName,
} from '../../src/listing/format.ts';

describe('formatting for people', () => {
  it('writes ranges with an en dash, and one value when both ends are equal', () => {
    expect(formatRange(5, 7)).toBe('5–7');
    expect(formatRange(5, 5)).toBe('5');
  });

  it('writes prices with thousands separators, cents only where there are any, and no currency', () => {
    expect(formatPrice(549000)).toBe('549,000');
    expect(formatPrice(1234567.5)).toBe('1,234,567.50');
    expect(formatPriceRange(455000, 512000.5)).toBe('455,000–512,000.50');
    expect(formatPriceRange(1791700.99, 1791700.99)).toBe('1,791,700.99');
  });

  it('writes counts with thousands separators, as toLocaleString does', () => {
    expect(counted(100_000)).toBe('100,000');
    for (const count of [0, 1, 999, 1_000, 12_345, 1_000_000, 2.5, -3]) expect(counted(count)).toBe(count.toLocaleString('en'));
  });

  it('shows engine size 0 as electric', () => {
    expect(formatEngineRange(0, 0, MESSAGES.en)).toBe('Electric');
    expect(formatEngineRange(1496, 1998, MESSAGES.en)).toBe('1,496–1,998');
    expect(formatEngineRange(0, 1998, MESSAGES.en)).toBe('Electric or 1,998');
    expect(formatEngineRange(0, 0, MESSAGES['zh-hk'])).toBe('電動');
    expect(formatEngineRange(0, 1998, MESSAGES['zh-hk'])).toBe('電動或 1,998');
  });

  it('names the transmissions on offer', () => {
    expect(formatTransmissions(true, false, MESSAGES.en)).toBe('Automatic');
    expect(formatTransmissions(false, true, MESSAGES.en)).toBe('Manual');
    expect(formatTransmissions(true, true, MESSAGES.en)).toBe('Automatic, Manual');
    expect(formatTransmissions(true, true, MESSAGES['zh-hk'])).toBe('自動波、手動波');
  });

  it('splits a name into its Chinese make and the Latin rest', () => {
    expect(splitName('豐田 Toyota Alphard 2.5 Hybrid')).toEqual({ local: '豐田', latin: 'Toyota Alphard 2.5 Hybrid' });
    expect(splitName('阿爾法·羅密歐 Alfa Romeo Giulia')).toEqual({ local: '阿爾法·羅密歐', latin: 'Alfa Romeo Giulia' });
    expect(splitName('Tesla Model 3')).toEqual({ local: '', latin: 'Tesla Model 3' });
    expect(splitName('โตโยต้า Toyota')).toEqual({ local: '', latin: 'โตโยต้า Toyota' });
  });

  it('takes the placeholder letter from the Latin part', () => {
    expect(initialOf('越野路華 Land Rover Defender')).toBe('L');
    expect(initialOf('豐田')).toBe('豐');
    expect(initialOf('😀 Emoji Motors')).toBe('😀');
  });
});
