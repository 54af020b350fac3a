/**
 * `npm run bundle:report [-- ROUTE_ID ...]`: the JavaScript a first visit downloads, per script
 * and per source (npm package or file of ours), from the last `npm run build`.
 * Route ids as in Remix's manifest; the default is the home page: `root routes/_public+/_index`.
 *
 *   npm run build && npm run bundle:report
 *   npm run bundle:report -- root routes/_public+/music
 */
import fs from 'node:fs';

import { bundleReport, formatReport, type Metafile, readBuildManifest } from './bundle-report-lib';

const routeIds = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['root', 'routes/_public+/_index'];
if (routeIds[0] !== 'root') routeIds.unshift('root');
const metafile = JSON.parse(fs.readFileSync('build/metafile.js.json', 'utf8')) as Metafile;
console.log(formatReport(bundleReport(readBuildManifest(), metafile, routeIds), routeIds));
