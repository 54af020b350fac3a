import { describe, expect, it } from 'vitest';

import { isLoopbackHostname } from './site-origin.server';

const hostnameOf = (url: string) => new URL(url).hostname;

describe('isLoopbackHostname', () => {
  it.each([
    'http://localhost:4201',
    'http://LOCALHOST',
    'http://night-shore.localhost:3000',
    'http://127.0.0.1:3000',
    'http://127.1.2.3',
    'http://[::1]:3000',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0:3000',
  ])('%s names this machine', (url) => {
    expect(isLoopbackHostname(hostnameOf(url))).toBe(true);
  });

  it.each([
    'https://nightshore.example',
    'http://192.168.1.20:3000',
    'http://10.0.0.1',
    'http://[2001:db8::1]',
    'http://[::ffff:10.0.0.1]',
    'https://localhost.example.com',
  ])('%s does not', (url) => {
    expect(isLoopbackHostname(hostnameOf(url))).toBe(false);
  });

  it('takes bare addresses too', () => {
    expect(isLoopbackHostname('::1')).toBe(true);
    expect(isLoopbackHostname('[::1]')).toBe(true);
    expect(isLoopbackHostname('nightshore.example')).toBe(false);
  });
});
