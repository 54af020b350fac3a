import mongoose, { Schema } from 'mongoose';

/**
 * Serial numeric ids. Every entity has an `id` taken from this collection
 * ({ _id: '<collection>', seq }) and used in URLs and JSON.
 */
const CounterSchema = new Schema<{ _id: string; seq: number }>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true, default: 0 } },
  { versionKey: false },
);

export const Counter =
  (mongoose.models.Counter as mongoose.Model<{ _id: string; seq: number }>) ??
  mongoose.model('Counter', CounterSchema, 'counters');

export async function nextId(name: string): Promise<number> {
  const counter = await Counter.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: 1 } },
    { upsert: true, returnDocument: 'after', lean: true },
  );
  if (!counter) throw new Error(`Counter ${name} could not be incremented`);
  return counter.seq;
}

/**
 * Mongoose plugin: a unique numeric `id`, assigned from the counter on first save.
 * `createdAt` comes from mongoose timestamps.
 */
export function serialIdPlugin(schema: Schema, options: { counter: string }) {
  schema.add({ id: { type: Number, unique: true, index: true } });
  schema.pre('validate', async function () {
    if (this.isNew && (this.get('id') === undefined || this.get('id') === null)) {
      this.set('id', await nextId(options.counter));
    }
  });
}
