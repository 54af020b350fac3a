import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { ConfigError, parseEnv } from './env.server';

describe('configuration', () => {
  it('has working defaults for a first run', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      UPLOADS_DIR: './uploads',
      SITE_NAME: 'Night Shore',
      SEED: true,
    });
    expect(env.MONGODB_URI).toBeUndefined();
  });

  it('treats an empty variable as unset', () => {
    const env = parseEnv({ MONGODB_URI: '', PORT: '' });
    expect(env.MONGODB_URI).toBeUndefined();
    expect(env.PORT).toBe(3000);
  });

  it.each([
    ['PORT', 'eighty'],
    ['MONGODB_URI', 'postgres://localhost/db'],
    ['SEED', 'maybe'],
    ['CONTACT_EMAIL', 'not-an-email'],
    ['ASSET_HOST', 'cdn without scheme'],
  ])('fails with the name of a bad %s', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(
      new RegExp(`^Invalid configuration:\\n  ${name}:`),
    );
  });

  it('requires SESSION_SECRET with MONGODB_URI in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', MONGODB_URI: 'mongodb://db:27017/' })).toThrow(
      /SESSION_SECRET/,
    );
    expect(
      parseEnv({
        NODE_ENV: 'production',
        MONGODB_URI: 'mongodb://db:27017/',
        SESSION_SECRET: 'a-long-enough-secret',
      }).MONGODB_URI,
    ).toBe('mongodb://db:27017/');
  });

  it('stops the server start with a message that names the variable', () => {
    let output = '';
    try {
      execFileSync(
        process.execPath,
        ['node_modules/tsx/dist/cli.mjs', 'app/platform/env.server.ts'],
        {
          env: { ...process.env, PORT: 'not-a-port' },
          encoding: 'utf8',
          stdio: 'pipe',
        },
      );
    } catch (error) {
      output = String((error as { stderr?: string }).stderr);
    }
    expect(output).toContain('PORT');
    expect(output).toContain('Invalid configuration');
  });
});
