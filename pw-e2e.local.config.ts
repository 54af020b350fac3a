import base from './playwright.config';
// Local only (not committed): the suite's config with only the pages' server, and more time to start it.
const servers = Array.isArray(base.webServer) ? base.webServer : [base.webServer!];
export default { ...base, workers: 1, webServer: [{ ...servers[0]!, timeout: 400_000 }] };
