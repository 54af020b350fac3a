// A media job's process entry under tsx (app/media/run-in-thread.server.ts forks it): register
// tsx's loader in this process, then run the TypeScript job (./transcode-thread.ts).
import { register } from 'tsx/esm/api';

register();
await import('./transcode-thread.ts');
