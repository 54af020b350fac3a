import { z } from 'zod';

import { FONT_CHOICES, THEME_APPEARANCES, THEME_VARIANTS } from '~/types/entities';

import { LIMITS } from './common';

/** A CSS colour the theme can use: hsl(), hex, or rgb(). */
const colour = z
  .string()
  .trim()
  .max(64)
  .regex(
    /^(hsl\(\s*\d{1,3}(\.\d+)?(deg)?\s*,?\s*\d{1,3}(\.\d+)?%\s*,?\s*\d{1,3}(\.\d+)?%\s*\)|#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?)$/,
    'Colour must be an hsl() value or a hex colour',
  );

export const ThemeSchema = z.object({
  primary: colour,
  variant: z.enum(THEME_VARIANTS),
  appearance: z.enum(THEME_APPEARANCES),
  radius: z.coerce
    .number()
    .min(0, 'Number must be greater than or equal to 0')
    .max(2, 'Number must be less than or equal to 2'),
  headerFont: z.enum(FONT_CHOICES),
  bodyFont: z.enum(FONT_CHOICES),
  heroTitle: z.string().trim().max(LIMITS.title).default(''),
  heroText: z.string().trim().max(LIMITS.description).default(''),
  footerText: z.string().trim().max(LIMITS.description).default(''),
  weeklyRotation: z
    .preprocess((v) => v === true || v === 'true' || v === 'on', z.boolean())
    .default(false),
});
export type ThemeInput = z.infer<typeof ThemeSchema>;
