import { foregroundFor } from '~/theme/contrast';
import { fontStack } from '~/theme/fonts';
import { parseColour } from '~/theme/theme';

/**
 * A heading, body text and button in the chosen fonts, colour and radius, before saving
 * (JavaScript only; the form itself needs none).
 */
export function ThemePreview({
  primary,
  radius,
  headerFont,
  bodyFont,
}: {
  primary: string;
  radius: number;
  headerFont: string;
  bodyFont: string;
}) {
  const p = parseColour(primary);
  const previewColour = `hsl(${p.h} ${p.s}% ${p.l}%)`;
  // The text colour the site itself puts on this colour (AA contrast), not a guess.
  const f = foregroundFor(p);
  const previewText = `hsl(${f.h} ${f.s}% ${f.l}%)`;
  return (
    <section aria-label="Preview" className="rounded-lg border border-border bg-card p-6">
      <p className="text-sm font-medium text-muted-foreground">Preview</p>
      <p className="mt-2 text-2xl font-bold" style={{ fontFamily: fontStack(headerFont) }}>
        Heading in {headerFont}
      </p>
      <p className="mt-1 text-sm" style={{ fontFamily: fontStack(bodyFont) }}>
        Body text in {bodyFont}. Fonts other than the saved ones show in a fallback until saved.
      </p>
      <span
        className="mt-3 inline-block px-4 py-2 text-sm font-semibold"
        style={{
          backgroundColor: previewColour,
          color: previewText,
          borderRadius: `${radius}rem`,
        }}
      >
        Primary button
      </span>
    </section>
  );
}
