import inter400 from '@fontsource/inter/400.css';
import inter700 from '@fontsource/inter/700.css';
import orbitron400 from '@fontsource/orbitron/400.css';
import orbitron700 from '@fontsource/orbitron/700.css';

import type { ThemeJSON } from '~/types/entities';

/**
 * What the document head needs for the theme, computed on the server (root loader) so the
 * browser bundle carries neither the theme code nor the font stylesheet URLs: pages link the
 * versioned /theme.css (fonts and colour variables, app/document/theme-stylesheet.server.ts).
 */
export type ThemeHead = {
  appearance: ThemeJSON['appearance'];
  /** Stylesheets to link after the site's own: the theme's, or the default fonts'. */
  stylesheets: string[];
  /** CSS custom properties written into the head: only the error page's default theme. */
  css: string;
};

/**
 * The default theme's head, for the root error page (no loader data there, and perhaps no
 * database behind /theme.css). theme-head.test.ts keeps it equal to `themeCss(DEFAULT_THEME)`
 * and the default fonts' stylesheets.
 */
export const DEFAULT_THEME_HEAD: ThemeHead = {
  appearance: 'dark',
  stylesheets: [orbitron400, orbitron700, inter400, inter700],
  css: ":root{--radius:0.5rem;--font-heading:'Orbitron', 'Orbitron Fallback', ui-sans-serif, system-ui, sans-serif;--font-body:'Inter', 'Inter Fallback', ui-sans-serif, system-ui, sans-serif;--background:347 30% 6%;--foreground:347 10% 96%;--card:347 30% 9%;--card-foreground:347 10% 96%;--popover:347 30% 9%;--popover-foreground:347 10% 96%;--primary:347 100% 56%;--primary-foreground:0 0% 4%;--secondary:347 30% 18%;--secondary-foreground:347 10% 96%;--muted:347 30% 15%;--muted-foreground:347 10% 70%;--placeholder:347 8% 50%;--accent:287 85% 65%;--accent-foreground:0 0% 4%;--destructive:0 84% 60%;--destructive-foreground:0 0% 4%;--border:347 30% 22%;--input:347 30% 22%;--ring:347 100% 56%;color-scheme:dark}",
};
