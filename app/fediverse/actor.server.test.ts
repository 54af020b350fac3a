import { describe, expect, it } from 'vitest';

import { actorSummary, defaultHandle } from './actor.server';
import { isPublicAddress } from './public-address.server';

describe('the default handle (FEDIVERSE_HANDLE unset)', () => {
  it.each([
    ['Night Shore', 'night_shore'],
    ['The Low-Tide Collective', 'the_low_tide_collective'],
    ['Sœurs & Frères', 'surs_freres'],
    ['Café Ørsted!', 'cafe_rsted'],
    ['  ---  ', 'site'],
    ['★★★', 'site'],
    ['A'.repeat(50), 'a'.repeat(30)],
  ])('%s → %s', (name, handle) => {
    expect(defaultHandle(name)).toBe(handle);
    expect(handle).toMatch(/^[a-z0-9_]{1,30}$/);
  });
});

describe('the actor summary', () => {
  it('is the about text, escaped', () => {
    expect(actorSummary('<b>Bad</b> & Co')).toBe(
      '<p>The story of &lt;b&gt;Bad&lt;/b&gt; &amp; Co, an electronic music collective from the Jersey Shore.</p>',
    );
  });
});

describe('public addresses (deliveries go only there unless FEDIVERSE_ALLOW_PRIVATE_PEERS)', () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.20.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:93.184.216.34', true],
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
