// The worker thread's entry (app/media/run-in-thread.server.ts starts it): register tsx's
// loader in this thread, then run the TypeScript job (./transcode-thread.ts).
import { register } from 'tsx/esm/api';

register();
await import('./transcode-thread.ts');
