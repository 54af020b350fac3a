import inter400 from '@fontsource/inter/400.css';
import inter700 from '@fontsource/inter/700.css';
import orbitron400 from '@fontsource/orbitron/400.css';
import orbitron700 from '@fontsource/orbitron/700.css';
import type { ThemeJSON } from '~/types/entities';

/**
 * What the document head needs for the theme, computed on the server (root loader) so the
 * browser bundle carries neither the theme code nor the twelve font stylesheet URLs
 * (`/` ships at most 120 KB of gzipped JS, tests/e2e/page-weight.spec.ts).
 */
export type ThemeHead = {
  appearance: ThemeJSON['appearance'];
  /** The theme's CSS custom properties (`themeCss`). */
  css: string;
  /** The @font-face rules of the two chosen fonts, inlined in the head. */
  fontCss: string;
  /** Font stylesheets to link (only those that could not be inlined). */
  fontLinks: string[];
};

/**
 * The default theme's head, for the root error page (no loader data there). theme-head.test.ts
 * keeps it equal to `themeCss(DEFAULT_THEME)` and the default fonts' stylesheets.
 */
export const DEFAULT_THEME_HEAD: ThemeHead = {
  appearance: 'dark',
  css: ":root{--radius:0.5rem;--font-heading:'Orbitron', 'Orbitron Fallback', ui-sans-serif, system-ui, sans-serif;--font-body:'Inter', 'Inter Fallback', ui-sans-serif, system-ui, sans-serif;--background:347 30% 6%;--foreground:347 10% 96%;--card:347 30% 9%;--card-foreground:347 10% 96%;--popover:347 30% 9%;--popover-foreground:347 10% 96%;--primary:347 100% 56%;--primary-foreground:0 0% 4%;--secondary:347 30% 18%;--secondary-foreground:347 10% 96%;--muted:347 30% 15%;--muted-foreground:347 10% 70%;--accent:287 85% 65%;--accent-foreground:0 0% 4%;--destructive:0 84% 60%;--destructive-foreground:0 0% 4%;--border:347 30% 22%;--input:347 30% 22%;--ring:347 100% 56%;color-scheme:dark}",
  fontCss: '',
  fontLinks: [orbitron400, orbitron700, inter400, inter700],
};
