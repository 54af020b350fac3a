import { Schema } from 'mongoose';

import { cachedFindOne, defineModel } from './model-helpers.server';

/** The newsletter's settings (one document): whether sign-ups must be confirmed by email. */
export type NewsletterSettingsJSON = { doubleOptIn: boolean };

type SettingsDoc = NewsletterSettingsJSON & { _id: string };

const SettingsSchema = new Schema<SettingsDoc>(
  { _id: { type: String, default: 'newsletter' }, doubleOptIn: Boolean },
  { timestamps: { createdAt: false, updatedAt: true }, versionKey: false },
);

const NewsletterSettings = defineModel<SettingsDoc>(
  'NewsletterSettings',
  SettingsSchema,
  'newsletter_settings',
);

/** Off by default: a sign-up is active at once, as the site has always done. */
export async function getNewsletterSettings(): Promise<NewsletterSettingsJSON> {
  const doc = await cachedFindOne(NewsletterSettings, { filter: { _id: 'newsletter' } });
  return { doubleOptIn: doc?.doubleOptIn === true };
}

export async function saveNewsletterSettings(
  input: NewsletterSettingsJSON,
): Promise<NewsletterSettingsJSON> {
  await NewsletterSettings.updateOne(
    { _id: 'newsletter' },
    { $set: { doubleOptIn: input.doubleOptIn } },
    { upsert: true },
  );
  return { doubleOptIn: input.doubleOptIn };
}
