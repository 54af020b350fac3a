// Adds the platform packages of rollup that npm leaves out of package-lock.json when the
// registry it resolves from does not serve them (our mirror serves only linux-x64-gnu and
// linux-arm64-gnu), so `npm ci` accepts the lock file. Run after a change of rollup:
//   node scripts/complete-lock-platforms.mjs package-lock.json
// See docs/decisions/015-lock-file-for-npm-ci.md.
import fs from 'node:fs';
const lockPath = process.argv[2];
const l = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const r = l.packages['node_modules/rollup'];
const meta = (name) => {
  const m = name.replace('@rollup/rollup-', '');
  const [os0, cpu0, abi] = m.split('-');
  const os = {
    android: 'android',
    darwin: 'darwin',
    win32: 'win32',
    freebsd: 'freebsd',
    linux: 'linux',
    openbsd: 'openbsd',
    openharmony: 'openharmony',
  }[os0];
  const cpu = {
    arm: 'arm',
    arm64: 'arm64',
    x64: 'x64',
    ia32: 'ia32',
    loong64: 'loong64',
    riscv64: 'riscv64',
    ppc64: 'ppc64',
    s390x: 's390x',
  }[cpu0];
  const e = { version: r.version, cpu: [cpu], dev: true, license: 'MIT', optional: true, os: [os] };
  if (os === 'linux') e.libc = [abi && abi.startsWith('musl') ? 'musl' : 'glibc'];
  return e;
};
let added = 0;
for (const name of Object.keys(r.optionalDependencies)) {
  if (!name.startsWith('@rollup/')) continue;
  const key = 'node_modules/' + name;
  if (!l.packages[key]) {
    l.packages[key] = meta(name);
    added++;
  }
}
l.packages = Object.fromEntries(
  Object.entries(l.packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'),
  ),
);
fs.writeFileSync(lockPath, JSON.stringify(l, null, 2) + '\n');
console.log('added', added);
