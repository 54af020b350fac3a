import { Schema } from 'mongoose';

import type { ThemeJSON } from '~/types/entities';

import { cachedFindOne, defineModel } from './model-helpers.server';

/** The default theme (what a fresh install shows); the hero and footer texts' wording is ours. */
export const DEFAULT_THEME: ThemeJSON = {
  primary: 'hsl(347, 100%, 56%)',
  variant: 'vibrant',
  appearance: 'dark',
  radius: 0.5,
  headerFont: 'Orbitron',
  bodyFont: 'Inter',
  heroTitle: 'Echoes of the Night',
  heroText:
    'Electronic music from the Jersey Shore: synths, salt air and the boardwalk after dark.',
  footerText:
    'An electronic music collective from Asbury Park, New Jersey, making music for late drives and early sunrises.',
  weeklyRotation: false,
};

type ThemeDoc = ThemeJSON & { _id: string; updatedAt?: Date };

const ThemeSchema = new Schema<ThemeDoc>(
  {
    _id: { type: String, default: 'theme' },
    primary: String,
    variant: String,
    appearance: String,
    radius: Number,
    headerFont: String,
    bodyFont: String,
    heroTitle: String,
    heroText: String,
    footerText: String,
    weeklyRotation: Boolean,
  },
  { timestamps: { createdAt: false, updatedAt: true }, versionKey: false },
);

/** A singleton: one document with _id 'theme'. */
export const ThemeSettings = defineModel<ThemeDoc>('ThemeSettings', ThemeSchema, 'theme_settings');

function toThemeJSON(doc: Partial<ThemeDoc> | null): ThemeJSON {
  const t = { ...DEFAULT_THEME };
  if (!doc) return t;
  for (const key of Object.keys(DEFAULT_THEME) as (keyof ThemeJSON)[]) {
    const value = doc[key];
    if (value !== undefined && value !== null) (t as Record<string, unknown>)[key] = value;
  }
  return t;
}

export async function getTheme(): Promise<ThemeJSON> {
  return toThemeJSON(await cachedFindOne(ThemeSettings, { filter: { _id: 'theme' } }));
}

export async function saveTheme(input: Partial<ThemeJSON>): Promise<ThemeJSON> {
  const doc = await ThemeSettings.findByIdAndUpdate(
    'theme',
    { $set: input },
    { upsert: true, returnDocument: 'after', setDefaultsOnInsert: false },
  ).lean();
  return toThemeJSON(doc);
}

/** Seed: store the defaults when there is no theme yet. */
export async function ensureTheme(): Promise<void> {
  await ThemeSettings.updateOne(
    { _id: 'theme' },
    { $setOnInsert: DEFAULT_THEME },
    { upsert: true },
  );
}
