import audiowide400 from '@fontsource/audiowide/400.css';
import inter400 from '@fontsource/inter/400.css';
import inter700 from '@fontsource/inter/700.css';
import lato400 from '@fontsource/lato/400.css';
import lato700 from '@fontsource/lato/700.css';
import montserrat400 from '@fontsource/montserrat/400.css';
import montserrat700 from '@fontsource/montserrat/700.css';
import nunito400 from '@fontsource/nunito/400.css';
import nunito700 from '@fontsource/nunito/700.css';
import orbitron400 from '@fontsource/orbitron/400.css';
import orbitron700 from '@fontsource/orbitron/700.css';
import permanentMarker400 from '@fontsource/permanent-marker/400.css';
import poppins400 from '@fontsource/poppins/400.css';
import poppins700 from '@fontsource/poppins/700.css';
import raleway400 from '@fontsource/raleway/400.css';
import raleway700 from '@fontsource/raleway/700.css';
import righteous400 from '@fontsource/righteous/400.css';
import roboto400 from '@fontsource/roboto/400.css';
import roboto700 from '@fontsource/roboto/700.css';
import syncopate400 from '@fontsource/syncopate/400.css';
import syncopate700 from '@fontsource/syncopate/700.css';

import type { FontChoice } from '~/types/entities';

/**
 * The twelve font choices, served from @fontsource packages through the build (no
 * third-party host). Only the theme's two chosen fonts are linked from a page.
 */
export const FONT_STYLESHEETS: Record<FontChoice, string[]> = {
  Inter: [inter400, inter700],
  Orbitron: [orbitron400, orbitron700],
  Montserrat: [montserrat400, montserrat700],
  Roboto: [roboto400, roboto700],
  Raleway: [raleway400, raleway700],
  Poppins: [poppins400, poppins700],
  Nunito: [nunito400, nunito700],
  Lato: [lato400, lato700],
  Syncopate: [syncopate400, syncopate700],
  Audiowide: [audiowide400],
  Righteous: [righteous400],
  'Permanent Marker': [permanentMarker400],
};

/** The family of a font's metric-matched local fallback (declared by `themeFonts`). */
export const fallbackFamily = (font: string) => `${font} Fallback`;

/**
 * Font stacks: the web font, then its metric-matched fallback (no layout shift when the web
 * font arrives), then the system fonts.
 */
export const fontStack = (font: string) =>
  `'${font}', '${fallbackFamily(font)}', ui-sans-serif, system-ui, sans-serif`;
