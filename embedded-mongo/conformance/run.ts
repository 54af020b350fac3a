// Conformance runner: MongoDB's CRUD unified-format specification tests against a fresh in-memory
// embedded store, through the official `mongodb` driver. It implements the subset of the unified
// test format the CRUD tests use (see README.md in this folder).
//
//   npm run conformance -- [path to a mongodb/specifications checkout] [--file substring] [--verbose]
//
// Prints per-file pass/fail/skip counts, each failing test with a one-line reason, and the pass
// rate over the tests that apply to a MongoDB 7.0 standalone. This file is the command line and
// the report; runner.ts runs a file's tests, spec-files.ts finds and reads the files and decides
// which tests apply, entities.ts and operations.ts turn a test into driver calls, match.ts and
// expectations.ts compare what happened with what the test expects.
import { type FileResult, runFile } from './runner';
import { findSpecDir, listSpecFiles } from './spec-files';

function parseArgs(argv: string[]): { dir: string; only?: string; verbose: boolean } {
  let dir = process.env.MONGODB_SPECS_DIR ?? '';
  let only: string | undefined;
  let verbose = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--file') only = argv[++i];
    else if (argv[i] === '--verbose') verbose = true;
    else dir = argv[i];
  }
  if (!dir) {
    console.error(
      'Usage: npm run conformance -- <path to a mongodb/specifications checkout> [--file name] [--verbose]\n' +
        '(or set MONGODB_SPECS_DIR). See embedded-mongo/conformance/README.md.',
    );
    process.exit(2);
  }
  const specDir = findSpecDir(dir);
  if (specDir) return { dir: specDir, only, verbose };
  console.error(`No unified CRUD test files (*.json) found under ${dir}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { dir, only, verbose } = parseArgs(process.argv.slice(2));
  const files = listSpecFiles(dir, only);
  const results: FileResult[] = [];
  for (const f of files) results.push(await runFile(f, dir, verbose));
  const w = Math.max(...results.map((r) => r.file.length));
  const col = (n: number) => String(n).padStart(4);
  console.log(`${'file'.padEnd(w)}  pass  fail  skip  driver`);
  for (const r of results) {
    console.log(
      `${r.file.padEnd(w)}  ${col(r.pass)}  ${col(r.fail)}  ${col(r.skip)}  ${col(r.driver.length)}`,
    );
  }
  const driver = results.flatMap((r) => r.driver.map((f) => ({ file: r.file, ...f })));
  if (driver.length) {
    console.log('\nNot run: tests of driver behaviour the Node.js driver does not have:');
    for (const f of driver) console.log(`- ${f.file}: ${f.test} (${f.reason})`);
  }
  const failures = results.flatMap((r) => r.failures.map((f) => ({ file: r.file, ...f })));
  if (failures.length) {
    console.log('\nFailing tests:');
    for (const f of failures) console.log(`- ${f.file}: ${f.test}\n    ${f.reason}`);
  }
  const pass = results.reduce((s, r) => s + r.pass, 0);
  const fail = results.reduce((s, r) => s + r.fail, 0);
  const skip = results.reduce((s, r) => s + r.skip, 0);
  const applicable = pass + fail;
  const rate = applicable ? ((100 * pass) / applicable).toFixed(1) : '0.0';
  const withDriver = applicable + driver.length;
  const rateWithDriver = withDriver ? ((100 * pass) / withDriver).toFixed(1) : '0.0';
  console.log(
    `\n${files.length} files; ${applicable} tests apply to a MongoDB 7.0 standalone ` +
      `(${skip} skipped by their runOnRequirements, ${driver.length} not run as tests of ` +
      `Node.js driver behaviour): ${pass} passed, ${fail} failed, pass rate ${rate}% ` +
      `(${rateWithDriver}% counting the driver tests as failures)`,
  );
  // Non-zero when an applicable test fails, for scripts and CI.
  process.exitCode = fail ? 1 : 0;
}

await main();
