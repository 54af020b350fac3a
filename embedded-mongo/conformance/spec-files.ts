// Loading MongoDB's CRUD unified-format spec files: where they are in a checkout, reading one
// (relaxed Extended JSON), and which of its tests apply: those whose runOnRequirements hold for
// the server this runner stands in for (a MongoDB 7.0 standalone without authentication), less
// the tests of driver behaviour the Node.js driver does not have (counted apart).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { BSON } from 'mongodb';

import type { Doc } from './match';

const { EJSON } = BSON;

/** The server this runner stands in for: a MongoDB 7.0 standalone. */
const SERVER_VERSION = [7, 0, 0];
const TOPOLOGY = 'single';

/**
 * The folder of unified CRUD test files under `dir`, which may name a specifications checkout's
 * root, its `source/` folder or the `unified` folder itself; null when none holds *.json files.
 */
export function findSpecDir(dir: string): string | null {
  for (const sub of ['source/crud/tests/unified', 'crud/tests/unified', '.']) {
    const d = path.resolve(dir, sub);
    if (existsSync(d) && readdirSync(d).some((f) => f.endsWith('.json'))) return d;
  }
  return null;
}

/** The spec files of `dir`, sorted by name; with `only`, those whose name contains it. */
export function listSpecFiles(dir: string, only?: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .filter((f) => !only || f.includes(only))
    .sort();
}

/** One spec file, parsed as relaxed Extended JSON. */
export function readSpecFile(dir: string, fileName: string): Doc {
  const text = readFileSync(path.join(dir, fileName), 'utf8');
  return EJSON.parse(text, { relaxed: true }) as Doc;
}

// ---------------------------------------------------------------- requirements

function versionOf(s: string): number[] {
  const parts = s.split('.').map((x) => Number(x));
  while (parts.length < 3) parts.push(0);
  return parts;
}

function cmpVersion(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Whether one runOnRequirement holds for a 7.0 standalone without auth. */
function requirementHolds(r: Doc): boolean {
  if (typeof r.minServerVersion === 'string') {
    if (cmpVersion(SERVER_VERSION, versionOf(r.minServerVersion)) < 0) return false;
  }
  if (typeof r.maxServerVersion === 'string') {
    if (cmpVersion(SERVER_VERSION, versionOf(r.maxServerVersion)) > 0) return false;
  }
  if (Array.isArray(r.topologies) && !r.topologies.includes(TOPOLOGY)) return false;
  if (r.serverless === 'require') return false;
  if (r.auth === true) return false;
  if (r.csfle === true) return false;
  if (r.serverParameters !== undefined) return false;
  return true;
}

/** Whether a runOnRequirements list (file or test level) lets the test run: one must hold. */
export function requirementsHold(list: unknown): boolean {
  if (!Array.isArray(list) || list.length === 0) return true;
  return list.some((r) => requirementHolds(r as Doc));
}

/**
 * Tests of driver behaviour that the official Node.js driver (which this runner uses) does not
 * have; they say nothing about the server. Counted apart, not as passes or failures.
 */
const NULL_ID = 'the Node.js driver replaces a null _id with an ObjectId before sending';
const BYPASS = 'the Node.js driver omits bypassDocumentValidation: false';
const DRIVER_SKIPS: Record<string, Record<string, string>> = {
  'bypassDocumentValidation.json': {
    'Aggregate with $out passes bypassDocumentValidation: false': BYPASS,
    'BulkWrite passes bypassDocumentValidation: false': BYPASS,
    'FindOneAndReplace passes bypassDocumentValidation: false': BYPASS,
    'FindOneAndUpdate passes bypassDocumentValidation: false': BYPASS,
    'InsertMany passes bypassDocumentValidation: false': BYPASS,
  },
  'create-null-ids.json': {
    'inserting _id with type null via insertOne': NULL_ID,
    'inserting _id with type null via insertMany': NULL_ID,
    'inserting _id with type null via bulkWrite': NULL_ID,
  },
};

/** Why a test is one of DRIVER_SKIPS, or null. */
export function driverSkip(file: string, test: Doc): string | null {
  return DRIVER_SKIPS[file]?.[String(test.description)] ?? null;
}
