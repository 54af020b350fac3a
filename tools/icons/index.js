// The entry scripts/icon-sprite-lib.ts imports (through scripts/tools.ts), resolved from this
// folder: Lucide's per-icon module (its `__iconData`) by file name, and Simple Icons.
export const lucideIcon = (name) => import(`lucide-react/icons/${name}`);
export * as simpleIcons from 'simple-icons';
