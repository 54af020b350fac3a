import type { Config } from 'tailwindcss';

// Every colour is a CSS variable set from the stored theme (see app/theme/theme.ts),
// so the admin's Site Appearance settings restyle the whole site without a rebuild.
const hsl = (name: string) => `hsl(var(--${name}) / <alpha-value>)`;

export default {
  content: ['./app/**/*.{ts,tsx}'],
  darkMode: 'class',
  theme: {
    container: { center: true, padding: '1rem', screens: { '2xl': '1280px' } },
    extend: {
      colors: {
        border: hsl('border'),
        input: hsl('input'),
        ring: hsl('ring'),
        background: hsl('background'),
        foreground: hsl('foreground'),
        primary: { DEFAULT: hsl('primary'), foreground: hsl('primary-foreground') },
        secondary: { DEFAULT: hsl('secondary'), foreground: hsl('secondary-foreground') },
        destructive: { DEFAULT: hsl('destructive'), foreground: hsl('destructive-foreground') },
        muted: { DEFAULT: hsl('muted'), foreground: hsl('muted-foreground') },
        placeholder: hsl('placeholder'),
        accent: { DEFAULT: hsl('accent'), foreground: hsl('accent-foreground') },
        card: { DEFAULT: hsl('card'), foreground: hsl('card-foreground') },
        popover: { DEFAULT: hsl('popover'), foreground: hsl('popover-foreground') },
      },
      borderRadius: {
        lg: 'var(--radius)',
        md: 'calc(var(--radius) - 2px)',
        sm: 'calc(var(--radius) - 4px)',
      },
      fontFamily: {
        heading: ['var(--font-heading)', 'ui-sans-serif', 'system-ui', 'sans-serif'],
        body: ['var(--font-body)', 'ui-sans-serif', 'system-ui', 'sans-serif'],
      },
    },
  },
  plugins: [],
  // Scope Tailwind's ~45 --tw-* defaults to the elements whose utilities use them instead of
  // setting them on every element and pseudo-element: less style work on every page (issue 9).
  experimental: { optimizeUniversalDefaults: true },
} satisfies Config;
