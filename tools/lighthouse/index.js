// The entry scripts/lighthouse.ts imports (through scripts/tools.ts), resolved from this folder.
export * as chromeLauncher from 'chrome-launcher';
export { default as lighthouse } from 'lighthouse';
