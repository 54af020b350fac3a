// The entry scripts/font-metrics.ts imports (through scripts/tools.ts), resolved from this
// folder: one font's metrics by capsize's name for it (camel case: `permanentMarker`).
export const fontMetrics = async (name) => (await import(`@capsizecss/metrics/${name}`)).default;
