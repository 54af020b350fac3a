import { Schema } from 'mongoose';

import type { ContactMessageJSON } from '~/types/entities';

import { serialIdPlugin } from './counter.server';
import { cachedFind, cachedFindOne, defineModel, iso } from './model-helpers.server';
import { countRecords, numberedPagesOf, type RecordList } from './paging.server';

type ContactMessageDoc = {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  createdAt: Date;
  updatedAt: Date;
};

const ContactMessageSchema = new Schema<ContactMessageDoc>(
  {
    name: { type: String, required: true },
    email: { type: String, required: true },
    subject: { type: String, required: true },
    message: { type: String, required: true },
  },
  { timestamps: true },
);
ContactMessageSchema.plugin(serialIdPlugin, { counter: 'contact_messages' });
ContactMessageSchema.index({ createdAt: -1, id: -1 });

export const ContactMessage = defineModel<ContactMessageDoc>(
  'ContactMessage',
  ContactMessageSchema,
  'contact_messages',
);

export function toContactMessageJSON(m: ContactMessageDoc): ContactMessageJSON {
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    subject: m.subject,
    message: m.message,
    createdAt: iso(m.createdAt),
  };
}

export async function createContactMessage(input: {
  name: string;
  email: string;
  subject: string;
  message: string;
}): Promise<ContactMessageJSON> {
  const doc = await ContactMessage.create(input);
  return toContactMessageJSON(doc.toObject());
}

/** Newest first. */
export async function listContactMessages(
  options: { limit?: number } = {},
): Promise<ContactMessageJSON[]> {
  const docs = await cachedFind(ContactMessage, {
    sort: { createdAt: -1, id: -1 },
    limit: options.limit,
  });
  return docs.map(toContactMessageJSON);
}

export async function getContactMessage(id: number): Promise<ContactMessageJSON | null> {
  const doc = await cachedFindOne(ContactMessage, { filter: { id } });
  return doc ? toContactMessageJSON(doc) : null;
}

export async function deleteContactMessage(id: number): Promise<ContactMessageJSON | null> {
  const doc = await ContactMessage.findOneAndDelete({ id }).lean();
  return doc ? toContactMessageJSON(doc) : null;
}

/** From the collection's metadata (issue 37). */
export const countContactMessages = () => countRecords(ContactMessage);

/** One page of the back office's table, newest first (issue 37; indexed `{ createdAt: -1, id: -1 }`). */
export const pageContactMessages = numberedPagesOf(
  ContactMessage,
  { createdAt: -1, id: -1 },
  toContactMessageJSON,
);

/** GET /api/admin/messages: newest first (index `{ createdAt: -1, id: -1 }`; decision 045). */
export const contactMessageList = (): RecordList<ContactMessageDoc> => ({
  model: ContactMessage,
  sort: { createdAt: -1, id: -1 },
  fields: ['id', 'name', 'email', 'subject', 'message', 'createdAt'],
});
