// `npm run db -- --port 27017 --data-dir ./data/db [--host 127.0.0.1] [--memory] [--test-commands]`
import { startEmbeddedMongo } from './index';

function usage(): never {
  console.error(
    'usage: npm run db -- [--port 27017] [--data-dir ./data/db | --memory] [--host 127.0.0.1] [--test-commands]',
  );
  process.exit(2);
}

const args = process.argv.slice(2);
let port = 27017;
let dataDir: string | undefined = './data/db';
let host = '127.0.0.1';
let testCommands: boolean | undefined;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const next = (): string => args[++i] ?? usage();
  if (a === '--port') port = Number(next());
  else if (a === '--data-dir' || a === '--dbpath') dataDir = next();
  else if (a === '--host' || a === '--bind_ip') host = next();
  else if (a === '--memory') dataDir = undefined;
  else if (a === '--test-commands') testCommands = true;
  else if (a === '--help' || a === '-h') usage();
  else usage();
}
if (!Number.isInteger(port) || port < 0 || port > 65535) usage();

const store = await startEmbeddedMongo({ port, dataDir, host, testCommands });
console.log(store.uri);
console.error(
  `embedded-mongo: serving ${dataDir ? `data in ${dataDir}` : 'an in-memory store'}; Ctrl-C to stop`,
);
let stopping = false;
const shutdown = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  console.error(`embedded-mongo: ${signal}, stopping`);
  store.stop().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
