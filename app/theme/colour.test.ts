import { describe, expect, it } from 'vitest';

import { colourToHex, resolvePrimary } from './colour';

describe('colourToHex', () => {
  it('converts hsl() and normalises hex', () => {
    expect(colourToHex('hsl(0, 100%, 50%)')).toBe('#ff0000');
    expect(colourToHex('hsl(120, 100%, 25%)')).toBe('#008000');
    expect(colourToHex('hsl(0, 0%, 100%)')).toBe('#ffffff');
    expect(colourToHex('#0af')).toBe('#00aaff');
  });
  it('is close to the default pink', () => {
    expect(colourToHex('hsl(347, 100%, 56%)')).toBe('#ff1f4f');
  });
});

describe('resolvePrimary', () => {
  const current = 'hsl(347, 100%, 56%)';
  const currentHex = colourToHex(current);
  it('keeps the stored value when nothing changed', () => {
    expect(resolvePrimary({ text: current, picker: currentHex, current })).toBe(current);
  });
  it('takes an edited text field', () => {
    expect(resolvePrimary({ text: 'hsl(200, 80%, 50%)', picker: currentHex, current })).toBe(
      'hsl(200, 80%, 50%)',
    );
  });
  it('takes a changed picker when the text field was left alone (no JavaScript)', () => {
    expect(resolvePrimary({ text: current, picker: '#00FF00', current })).toBe('#00ff00');
  });
  it('the text field wins when both changed', () => {
    expect(resolvePrimary({ text: '#123456', picker: '#00ff00', current })).toBe('#123456');
  });
});
