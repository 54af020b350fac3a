import fs from 'node:fs';
import autocannon from 'autocannon';
import { startProdServer } from './prod-server';
const s = await startProdServer({ env: { ANALYTICS: 'false' } });
fs.writeFileSync('public/zz2.bin', Buffer.alloc(262144, 7));
const run = async (path: string, headers?: Record<string,string>) => Math.round((await autocannon({ url: s.origin + path, connections: 50, duration: 3, headers })).requests.average);
try {
  const a = '/uploads/audio/demo-neon-boardwalk.mp3';
  fs.copyFileSync(s.uploadsDir + a.replace('/uploads',''), s.uploadsDir + '/images/zz.jpg');
  for (let i = 0; i < 2; i++) {
    console.log('static256', await run('/zz2.bin'), 'imgrange', await run('/uploads/images/zz.jpg', { Range: 'bytes=0-262143' }), 'range', await run(a, { Range: 'bytes=0-262143' }), 'small', await run('/uploads/images/zz.jpg', { Range: 'bytes=0-1000' }));
  }
} finally { fs.rmSync('public/zz2.bin'); await s.stop(); }
