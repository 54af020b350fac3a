// Waits for the quick start's site, then checks that a newcomer's first pages answer 200:
// /, /music, the newest mix's page and its embed (/embed/tracks/{id}, which needs the embed
// build). Usage: node .ci/quick-start-check.mjs ORIGIN PID (PID: the quick start, to notice it
// exiting). Exits non-zero, naming the page, on any other answer.
const [origin, pid] = process.argv.slice(2);
const deadline = Date.now() + 15 * 60_000;

function alive() {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
}

/** The newest mix in /api/tracks once the site answers and the demo content is in, or null. */
async function findMix() {
  try {
    const res = await fetch(`${origin}/api/tracks`);
    if (!res.ok) return null;
    const body = await res.json();
    const tracks = Array.isArray(body) ? body : (body.tracks ?? body.items ?? []);
    return tracks.find((track) => track.type === 'Mix') ?? null;
  } catch {
    return null; // not listening yet
  }
}

let mix = null;
while (!(mix = await findMix())) {
  if (!alive()) {
    console.error('quick start: the command exited before the site served its demo mixes');
    process.exit(1);
  }
  if (Date.now() > deadline) {
    console.error('quick start: no demo mix in /api/tracks within 15 minutes');
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

let failed = false;
for (const page of ['/', '/music', `/music/${mix.id}`, `/embed/tracks/${mix.id}`]) {
  const res = await fetch(`${origin}${page}`);
  await res.arrayBuffer();
  console.log(`${res.status} ${page}`);
  if (res.status !== 200) failed = true;
}
process.exit(failed ? 1 : 0);
