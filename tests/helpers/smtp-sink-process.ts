import { startSmtpSink } from './smtp-sink';

/**
 * An SMTP sink in a process of its own (for `npm run bench:mail`, so the app's figures are
 * not the sink's): prints `{"port":N}` once listening, then `{"count":N}` each time it is
 * sent a line on stdin.
 */
const sink = await startSmtpSink({ keep: false });
process.stdout.write(`${JSON.stringify({ port: sink.port })}\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', () =>
  process.stdout.write(`${JSON.stringify({ count: sink.count() })}\n`),
);
process.stdin.on('end', () => void sink.close().then(() => process.exit(0)));
