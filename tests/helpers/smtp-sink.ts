import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for tests and the mail benchmark (smtp-server, no TLS, any login),
 * listening on a free port of 127.0.0.1. It keeps every message it accepts (raw, and parsed
 * with mailparser unless `parse: false`), and answers recipients as `respond` says: a
 * function of the address and how many times it was offered, returning null to accept or
 * `{ code, message }` to refuse (4xx temporary, 5xx permanent).
 */
export type SinkMessage = { to: string[]; raw: Buffer; parsed: ParsedMail | null };

export type SmtpSink = {
  url: string;
  port: number;
  messages: SinkMessage[];
  /** Messages accepted so far (also when not kept). */
  count: () => number;
  /** How many times each address was offered (RCPT TO). */
  offers: Map<string, number>;
  close: () => Promise<void>;
};

export async function startSmtpSink(
  options: {
    respond?: (address: string, attempt: number) => { code: number; message: string } | null;
    parse?: boolean;
    /** Keep the messages (default true); the benchmark only counts them. */
    keep?: boolean;
    /** Wait this long before accepting each message (a slower server). */
    delayMs?: number;
  } = {},
): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const offers = new Map<string, number>();
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'test' });
    },
    onRcptTo(address, _session, callback) {
      const email = address.address.toLowerCase();
      const attempt = (offers.get(email) ?? 0) + 1;
      offers.set(email, attempt);
      const refusal = options.respond?.(email, attempt) ?? null;
      if (!refusal) return callback();
      const error = new Error(refusal.message) as Error & { responseCode: number };
      error.responseCode = refusal.code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const finish = async () => {
          const raw = Buffer.concat(chunks);
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          if (options.keep !== false) {
            const parsed = options.parse === false ? null : await simpleParser(raw);
            messages.push({ to, raw, parsed });
          }
          accepted++;
          callback();
        };
        if (options.delayMs) setTimeout(() => void finish(), options.delayMs);
        else void finish();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      // A client that goes away mid-session (the app SIGKILLed by the crash test) resets its
      // connection: the sink carries on, as a real server does. Anything else is reported.
      server.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
        console.error('[smtp-sink]', error);
      });
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    count: () => accepted,
    offers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
