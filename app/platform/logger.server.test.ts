import { Writable } from 'node:stream';

import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';

import type * as LoggerModule from './logger.server';

/** The site's logger configuration, written to memory: fields, redaction, token paths. */

let m: typeof LoggerModule;
beforeAll(async () => {
  process.env.LOG_LEVEL = 'silent';
  m = await import('./logger.server');
});

function memoryLogger(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino(m.loggerOptions(level), stream), lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the site logger', () => {
  it('writes JSON with level, time and msg', async () => {
    const { log, lines } = memoryLogger();
    log.info({ requestId: 'r1' }, 'request');
    await flush();
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'request', requestId: 'r1' });
    expect(String(lines[0]?.time)).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('redacts cookies, authorisation, passwords and secrets wherever a caller puts them', async () => {
    const { log, lines } = memoryLogger();
    log.info({
      headers: { cookie: '__session=abc', authorization: 'Bearer x', accept: 'text/html' },
      password: 'hunter22',
      user: { password: 'hunter22', token: 'tok' },
      secret: 's',
    });
    await flush();
    const text = JSON.stringify(lines[0]);
    for (const value of ['__session=abc', 'Bearer x', 'hunter22', '"tok"', '"s"'])
      expect(text).not.toContain(value);
    expect(text).toContain('text/html');
  });

  it('writes link tokens in paths as [token], in fields and in child bindings', async () => {
    const { log, lines } = memoryLogger();
    log.info({ path: '/unsubscribe/12.abc.def?x=1' }, 'request');
    log.child({ path: '/newsletter/confirm/9.zz' }).info('child');
    log.info({ path: '/account/verify-email/secret-token' }, 'request');
    await flush();
    expect(lines.map((l) => l.path)).toEqual([
      '/unsubscribe/[token]',
      '/newsletter/confirm/[token]',
      '/account/verify-email/[token]',
    ]);
  });

  it('finds link tokens whatever the case and percent-encoding of the path (issue 38)', () => {
    const token = 'tok3nVALUE123';
    const spellings = [
      `/PODCAST/PRIVATE/${token}.xml`,
      `/podcast/privat%65/${token}.xml`,
      `/podcast/privat%2565/${token}.xml`,
      `/%70odcast/private/${token}.xml`,
      `/UNSUBSCRIBE/${token}`,
      `/unsubscrib%45/${token}`,
      `/Newsletter/Confirm/${token}`,
      `/account/verify%2Demail/${token}`,
      `/PODCAST/MEDIA/1/2/${token}/7/a.mp3`,
    ];
    for (const spelling of spellings) {
      const logged = m.loggablePath(spelling);
      expect(logged, spelling).not.toContain(token);
      expect(logged, spelling).toContain('[token]');
    }
    // Other paths keep their spelling.
    expect(m.loggablePath('/Music/%C3%A9t%C3%A9')).toBe('/Music/%C3%A9t%C3%A9');
  });

  it('keeps to its level', async () => {
    const { log, lines } = memoryLogger('error');
    log.info('not written');
    log.error('written');
    await flush();
    expect(lines.map((l) => l.msg)).toEqual(['written']);
  });
});
