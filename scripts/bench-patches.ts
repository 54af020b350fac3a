/**
 * `npm run bench:patches`: what each patch of patches/ buys (decision 031), measured on private
 * copies of the packages, never on node_modules (which may be shared, and carry an older patch).
 *
 * Both sides start from the pristine package (`npm pack <name>@<installed version>`); the "with"
 * side gets the patch file of patches/ (`patch -p1`), so what is measured is the patch in the
 * repository, whatever node_modules holds.
 *
 * - Router: the app is served twice at once, by the production server (server/index.ts) and the
 *   same build, from .bench-tmp/patches/router-{patched,pristine}/: each holds a copy of server/
 *   and build/ and a node_modules/ with its own @remix-run/router and the packages that load it
 *   (@remix-run/server-runtime, @remix-run/node, @remix-run/react, react-router,
 *   react-router-dom); everything else resolves to the project's node_modules. Node's ordinary
 *   resolution does the rest: nothing is hooked. Then autocannon runs on `/`, `/music` and
 *   `/api/tracks`, alternating the two servers (the order flips every round), and prints req/s of
 *   each, the ratio per round and its spread. Each URL is asked three ways (decision 051): by an
 *   anonymous visitor (the page cache answers: the router is not reached), by a signed-in member
 *   (a session cookie: no page cache, the routes run every time), and by an anonymous visitor
 *   carrying a cookie the site never sets (no page cache either, but the render memo applies).
 * - Render memo (`memo`, not a patch, measured the same way, decision 051): the same build served
 *   twice, with RENDER_MEMO=true and RENDER_MEMO=false, the same URLs asked the same three ways.
 * - Compiler (`@remix-run/dev`): the app is built with the patched and with the pristine
 *   compiler (copies in .bench-tmp/patches/node_modules), and the first visit's JavaScript of `/`
 *   and `/music` is weighed gzipped, as `npm run bundle:report` does. The project is built
 *   again with the installed compiler at the end.
 *
 *   npm run bench:patches                  # both
 *   npm run bench:patches -- router        # or: compiler, memo
 *   BENCH_DURATION=10 BENCH_ROUNDS=5 BENCH_CONNECTIONS=50 npm run bench:patches -- router
 *   BENCH_WHO=member,cookie npm run bench:patches -- memo   # only some of the three ways
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import autocannon from 'autocannon';

import { cpuSeconds, waitForQuiet } from './bench-stores';
import { bundleReport, type Metafile, readBuildManifest } from './bundle-report-lib';
import { buildIfNeeded, type ProdServer, projectRoot, startProdServer } from './prod-server';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = 2;
const URLS = ['/', '/music', '/api/tracks'];
/** Who asks: nobody known (page cache), a member (session cookie), a cookie the site never sets. */
type Who = 'anonymous' | 'member' | 'cookie';
const WHO: Who[] = (process.env.BENCH_WHO?.split(',') as Who[] | undefined) ?? [
  'anonymous',
  'member',
  'cookie',
];
type Target = { url: string; who: Who };
const TARGETS: Target[] = WHO.flatMap((who) =>
  URLS.filter((url) => who !== 'cookie' || url !== '/api/tracks').map((url) => ({ url, who })),
);
const label = (t: Target) => `${t.who} ${t.url}`;
const work = path.join(projectRoot, '.bench-tmp', 'patches');
const installed = path.join(projectRoot, 'node_modules');

/** The packages that load @remix-run/router on the server, copied beside each router variant. */
const ROUTER_USERS = [
  '@remix-run/server-runtime',
  '@remix-run/node',
  '@remix-run/react',
  'react-router',
  'react-router-dom',
];

const version = (pkg: string) =>
  (
    JSON.parse(fs.readFileSync(path.join(installed, pkg, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/** The patch file of patches/ for a package (`@remix-run/router` → `@remix-run+router+1.23.3.patch`). */
function patchFile(pkg: string): string {
  const file = path.join(projectRoot, 'patches', `${pkg.replace('/', '+')}+${version(pkg)}.patch`);
  if (!fs.existsSync(file)) throw new Error(`no ${path.relative(projectRoot, file)}`);
  return file;
}

/** The pristine package from the registry, unpacked once into .bench-tmp/patches/pristine. */
function pristine(pkg: string): string {
  const dir = path.join(work, 'pristine', `${pkg.replace('/', '+')}@${version(pkg)}`);
  if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  fs.mkdirSync(dir, { recursive: true });
  const tgz = execFileSync('npm', ['pack', `${pkg}@${version(pkg)}`, '--silent'], {
    cwd: path.dirname(dir),
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['xzf', tgz, '-C', dir, '--strip-components=1'], { cwd: path.dirname(dir) });
  fs.rmSync(path.join(path.dirname(dir), tgz));
  return dir;
}

/**
 * Put a package into `<base>/node_modules/<pkg>`: the pristine copy, patched with patches/ when
 * asked. (Installed extras, such as @remix-run/dev's own esbuild, come from node_modules.)
 */
function placePackage(base: string, pkg: string, patched: boolean): string {
  const target = path.join(base, 'node_modules', pkg);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.cpSync(pristine(pkg), target, { recursive: true });
  const nested = path.join(fs.realpathSync(path.join(installed, pkg)), 'node_modules');
  if (fs.existsSync(nested))
    fs.cpSync(nested, path.join(target, 'node_modules'), { recursive: true });
  if (patched) {
    const result = spawnSync('patch', ['-p1', '--forward', '-i', patchFile(pkg)], {
      cwd: base,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`patch ${pkg}: ${result.stdout}${result.stderr}`);
  }
  return target;
}

// ---------------------------------------------------------------------------------------------
// Router

type RouterVariant = { name: 'patched' | 'pristine'; dir: string; server?: ProdServer };

function prepareRouterVariant(name: RouterVariant['name']): RouterVariant {
  const dir = path.join(work, `router-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const router = placePackage(dir, '@remix-run/router', name === 'patched');
  for (const pkg of ROUTER_USERS)
    fs.cpSync(fs.realpathSync(path.join(installed, pkg)), path.join(dir, 'node_modules', pkg), {
      recursive: true,
    });
  fs.cpSync(path.join(projectRoot, 'server'), path.join(dir, 'server'), { recursive: true });
  fs.cpSync(path.join(projectRoot, 'build'), path.join(dir, 'build'), { recursive: true });

  // The router each loader of it gets, by Node's resolution from the copied server and build.
  const from = (file: string) => createRequire(file);
  const serverFile = path.join(dir, 'server', 'http-server.ts');
  const nodePkg = from(serverFile).resolve('@remix-run/node');
  const runtime = from(nodePkg).resolve('@remix-run/server-runtime');
  const reactPkg = from(path.join(dir, 'build', 'index.js')).resolve('@remix-run/react');
  const domServer = from(reactPkg).resolve('react-router-dom/server');
  const loaders = [runtime, reactPkg, domServer, from(domServer).resolve('react-router')];
  const wanted = from(path.join(router, 'package.json')).resolve('@remix-run/router');
  for (const loader of [nodePkg, ...loaders]) {
    if (!fs.realpathSync(loader).startsWith(dir + path.sep))
      throw new Error(`${loader} is not the ${name} variant's copy`);
  }
  for (const loader of loaders) {
    const got = from(loader).resolve('@remix-run/router');
    if (got !== wanted) throw new Error(`${loader} loads ${got}, not ${wanted}`);
  }
  const marked = 'UNSAFE_nightShoreRouterPatch' in (from(wanted)(wanted) as object);
  if (marked !== (name === 'patched')) throw new Error(`${wanted}: marker ${marked}`);
  return { name, dir };
}

/** A server of an A/B pair, its process (for its CPU time), and the member's cookie it gave. */
type Side = { name: string; origin: string; pid: number; memberCookie: string };

/** One run: requests/s, and the server's CPU time per answered request (ms). */
type Measured = { rps: number; cpuMs: number };

/** A member of this server (POST /api/register): its session cookie. */
async function memberCookie(origin: string): Promise<string> {
  const response = await fetch(`${origin}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ username: `bench-member-${Date.now()}`, password: 'bench-member-pw-1' }),
  });
  if (response.status !== 201) throw new Error(`register: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

function headersFor(side: Side, who: Who): Record<string, string> | undefined {
  if (who === 'member') return { Cookie: side.memberCookie };
  // A cookie the site never sets (a CDN's, another app's on the same host): no page cache.
  if (who === 'cookie') return { Cookie: 'bench-other=1' };
  return undefined;
}

async function measure(side: Side, target: Target, duration: number): Promise<Measured> {
  const cpuBefore = cpuSeconds(side.pid);
  const result = await autocannon({
    url: `${side.origin}${target.url}`,
    connections: CONNECTIONS,
    duration,
    headers: headersFor(side, target.who),
    timeout: 10,
  });
  if (result.errors + result.timeouts + result.non2xx > 0)
    throw new Error(
      `${label(target)}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  // CPU time is what a request costs the server whatever else runs on the machine; requests/s
  // on a shared machine follow the load (decision 051).
  const cpuMs = ((cpuSeconds(side.pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  return { rps: result.requests.average, cpuMs };
}

/** `Server-Timing: db` on rendered answers, which is how `waitForQuiet` tells a render. */
const QUIET_ENV = { DB_ROUND_TRIP_HEADER: 'true' };

/** Until the demo's media jobs (writes that empty the caches) are done on every server. */
async function quiet(origins: string[]): Promise<void> {
  // 15 s without a render of `/`: on a loaded machine the demo's jobs finish 3 s apart or more.
  const waited = await Promise.all(origins.map((origin) => waitForQuiet(origin, 300_000, 15_000)));
  console.log(`Quiet (the demo's media jobs done) after ${Math.max(...waited)} s.`);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const load = () => os.loadavg()[0]!.toFixed(1);

/**
 * Alternate the two sides on every target, ROUNDS times (the order of the sides flips every
 * round), and print req/s of each, the ratio with ÷ without per round, its mean and spread.
 */
async function alternate(title: string, sides: [Side, Side]): Promise<void> {
  for (const side of sides) for (const target of TARGETS) await measure(side, target, WARMUP);
  console.log(
    `${title}: ${ROUNDS} rounds × ${TARGETS.length} targets × 2 servers, ${DURATION} s each, ` +
      `${CONNECTIONS} connections; the order of the two servers flips every round. Load average ${load()}.`,
  );
  const rps = new Map<string, number[][]>(TARGETS.map((t) => [label(t), [[], []]]));
  const cpu = new Map<string, number[][]>(TARGETS.map((t) => [label(t), [[], []]]));
  const loads: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const target of TARGETS) {
      for (const i of order) {
        const m = await measure(sides[i]!, target, DURATION);
        rps.get(label(target))![i]!.push(m.rps);
        cpu.get(label(target))![i]!.push(m.cpuMs);
        console.log(
          `  round ${round + 1} ${label(target).padEnd(22)} ${sides[i]!.name.padEnd(12)} ${m.rps.toFixed(0)} req/s, ${m.cpuMs.toFixed(2)} ms CPU/request`,
        );
      }
    }
    loads.push(load());
  }
  console.log(
    `\n${'target'.padEnd(22)} ${`${sides[0].name} req/s`.padStart(28)} ${`${sides[1].name} req/s`.padStart(28)}  ratio per round (mean, min–max)`,
  );
  const table = (of: Map<string, number[][]>, digits: number) => {
    for (const target of TARGETS) {
      const [a, b] = of.get(label(target))! as [number[], number[]];
      const ratios = a.map((n, i) => n / b[i]!);
      const list = (xs: number[]) => xs.map((x) => x.toFixed(digits)).join('/');
      console.log(
        `${label(target).padEnd(22)} ${`${list(a)} (${mean(a).toFixed(digits)})`.padStart(28)} ` +
          `${`${list(b)} (${mean(b).toFixed(digits)})`.padStart(28)}  ` +
          `${ratios.map((r) => r.toFixed(2)).join(' ')} (${mean(ratios).toFixed(2)}, ` +
          `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
      );
    }
  };
  table(rps, 0);
  console.log(
    `\n${'target'.padEnd(22)} ${`${sides[0].name} CPU ms/req`.padStart(28)} ${`${sides[1].name} CPU ms/req`.padStart(28)}  ratio per round (mean, min–max)`,
  );
  table(cpu, 2);
  console.log(`Load average after each round: ${loads.join(', ')}.`);
}

async function benchRouter(): Promise<void> {
  buildIfNeeded();
  const variants = [prepareRouterVariant('patched'), prepareRouterVariant('pristine')];
  try {
    for (const v of variants)
      v.server = await startProdServer({
        serverEntry: path.join(v.dir, 'server', 'index.ts'),
        buildPath: path.join(v.dir, 'build', 'index.js'),
        env: QUIET_ENV,
      });
    await quiet(variants.map((v) => v.server!.origin));
    const sides = await Promise.all(
      variants.map(async (v) => ({
        name: v.name,
        origin: v.server!.origin,
        pid: v.server!.pid,
        memberCookie: await memberCookie(v.server!.origin),
      })),
    );
    await alternate('Router patch A/B', [sides[0]!, sides[1]!]);
  } finally {
    for (const v of variants) await v.server?.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Render memo

async function benchMemo(): Promise<void> {
  buildIfNeeded();
  const servers: ProdServer[] = [];
  try {
    for (const on of ['true', 'false'])
      servers.push(await startProdServer({ env: { ...QUIET_ENV, RENDER_MEMO: on } }));
    await quiet(servers.map((server) => server.origin));
    const sides = await Promise.all(
      servers.map(async (server, i) => ({
        name: i === 0 ? 'memo on' : 'memo off',
        origin: server.origin,
        pid: server.pid,
        memberCookie: await memberCookie(server.origin),
      })),
    );
    await alternate('Render memo A/B', [sides[0]!, sides[1]!]);
  } finally {
    for (const server of servers) await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Compiler

function build(cli: string): void {
  const result = spawnSync(process.execPath, [cli, 'build'], {
    cwd: projectRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`${cli} build failed`);
}

const PAGES: Record<string, string[]> = {
  '/': ['root', 'routes/_public+/_index'],
  '/music': ['root', 'routes/_public+/music'],
};

function weigh(): Record<string, { gzip: number; scripts: number }> {
  const manifest = readBuildManifest();
  const metafile = JSON.parse(
    fs.readFileSync(path.join(projectRoot, 'build', 'metafile.js.json'), 'utf8'),
  ) as Metafile;
  return Object.fromEntries(
    Object.entries(PAGES).map(([page, ids]) => {
      const report = bundleReport(manifest, metafile, ids);
      return [page, { gzip: report.gzip, scripts: report.scripts.length }];
    }),
  );
}

function benchCompiler(): void {
  const cli = (patched: boolean) =>
    path.join(
      placePackage(
        path.join(work, patched ? 'dev-patched' : 'dev-pristine'),
        '@remix-run/dev',
        patched,
      ),
      'dist',
      'cli.js',
    );
  const with_ = cli(true);
  const without = cli(false);
  try {
    console.log('Building with the patched compiler…');
    build(with_);
    const a = weigh();
    console.log('Building with the pristine compiler…');
    build(without);
    const b = weigh();
    console.log(`\nFirst-visit JavaScript, gzipped (bundle-report's sum of the scripts):`);
    for (const page of Object.keys(PAGES)) {
      const saved = b[page]!.gzip - a[page]!.gzip;
      console.log(
        `  ${page.padEnd(8)} patched ${a[page]!.gzip} B in ${a[page]!.scripts} scripts, pristine ` +
          `${b[page]!.gzip} B in ${b[page]!.scripts} scripts: the patch saves ${saved} B ` +
          `(${(saved / 1024).toFixed(1)} KB) and ${b[page]!.scripts - a[page]!.scripts} requests`,
      );
    }
  } finally {
    console.log('\nBuilding again with the installed compiler…');
    build(path.join(installed, '@remix-run', 'dev', 'dist', 'cli.js'));
  }
}

async function main(): Promise<void> {
  const which = process.argv[2];
  if (which && which !== 'router' && which !== 'compiler' && which !== 'memo')
    throw new Error('usage: bench:patches [router|compiler|memo]');
  if (!which || which === 'compiler') benchCompiler();
  if (!which || which === 'router') await benchRouter();
  if (which === 'memo') await benchMemo();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
