import { configure, type LogRecord } from '@logtape/logtape';

import { logger } from '~/platform/logger.server';

/**
 * Fedify logs through LogTape; its warnings and errors (a delivery that failed and will be
 * retried, a signature that did not verify, an activity a listener could not handle) go to our
 * logger as warnings, one line each, with the activity and inbox they name (decision 053).
 * Fedify's own info and debug lines stay silent.
 */
const FIELDS = ['activityId', 'inbox', 'attempt', 'recipient', 'keyId', 'identifier'] as const;

function text(record: LogRecord): string {
  return record.message
    .map((part, i) => {
      if (i % 2 === 0) return String(part);
      if (part instanceof Error) return part.message;
      return typeof part === 'string' ? part : JSON.stringify(part);
    })
    .join('')
    .slice(0, 2000);
}

function toPino(record: LogRecord): void {
  const fields: Record<string, unknown> = { category: record.category.join('.') };
  for (const name of FIELDS) {
    const value = record.properties[name];
    if (typeof value === 'string' || typeof value === 'number') fields[name] = value;
  }
  logger.warn(fields, `fedify: ${text(record)}`);
}

let configured = false;

export async function routeFedifyLogs(): Promise<void> {
  if (configured) return;
  configured = true;
  await configure({
    reset: true,
    sinks: { pino: toPino },
    loggers: [
      { category: 'fedify', lowestLevel: 'warning', sinks: ['pino'] },
      { category: ['logtape', 'meta'], lowestLevel: 'error', sinks: ['pino'] },
    ],
  });
}
