// Through mongoose: the same code paths the app uses in production.
import mongoose, { type Connection, Schema } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type EmbeddedMongo, startEmbeddedMongo } from './index';

let server: EmbeddedMongo;
let conn: Connection;

const artistSchema = new Schema(
  {
    name: { type: String, required: true },
    slug: { type: String, required: true, unique: true },
    emailLower: { type: String, sparse: true, unique: true },
    genre: { type: String, index: true },
    active: { type: Boolean, default: true },
  },
  { timestamps: true },
);
artistSchema.index({ genre: 1, name: 1 });

const trackSchema = new Schema(
  {
    title: String,
    number: { type: Number, required: true },
    artist: { type: Schema.Types.ObjectId, ref: 'Artist' },
    releasedAt: Date,
    tags: [String],
    plays: { type: Number, default: 0 },
  },
  { timestamps: true },
);

const counterSchema = new Schema({ _id: String, seq: { type: Number, default: 0 } });

beforeAll(async () => {
  server = await startEmbeddedMongo();
  conn = await mongoose.createConnection(server.uri, { dbName: 'mongoose_test' }).asPromise();
});

afterAll(async () => {
  await conn?.close();
  await server?.stop();
});

describe('mongoose against the embedded store', () => {
  it('syncs indexes and enforces them', async () => {
    const Artist = conn.model('Artist', artistSchema);
    await Artist.syncIndexes();
    const names = (await Artist.listIndexes()).map((i) => i.name).sort();
    expect(names).toEqual(['_id_', 'emailLower_1', 'genre_1', 'genre_1_name_1', 'slug_1']);
    // syncIndexes drops indexes that are no longer declared
    await Artist.collection.createIndex({ obsolete: 1 });
    await Artist.syncIndexes();
    expect((await Artist.listIndexes()).map((i) => i.name)).not.toContain('obsolete_1');

    await Artist.create({ name: 'Ana', slug: 'ana', genre: 'techno' });
    await Artist.create({ name: 'Bo', slug: 'bo', genre: 'house' });
    await expect(Artist.create({ name: 'Ana 2', slug: 'ana' })).rejects.toMatchObject({
      code: 11000,
      keyValue: { slug: 'ana' },
    });
    await Artist.create({ name: 'Cy', slug: 'cy', emailLower: 'cy@x.org' });
    await expect(
      Artist.create({ name: 'Cy2', slug: 'cy2', emailLower: 'cy@x.org' }),
    ).rejects.toMatchObject({
      code: 11000,
    });
  });

  it('sets timestamps and returns lean documents', async () => {
    const Artist = conn.model('Artist');
    const before = Date.now();
    const doc = await Artist.create({ name: 'Dee', slug: 'dee' });
    expect(doc.get('createdAt')).toBeInstanceOf(Date);
    const lean = await Artist.findOne({ slug: 'dee' }).lean<{
      createdAt: Date;
      updatedAt: Date;
      active: boolean;
    }>();
    expect(lean!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(lean!.active).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    await Artist.updateOne({ slug: 'dee' }, { $set: { name: 'Dee Dee' } });
    const after = await Artist.findOne({ slug: 'dee' }).lean<{
      createdAt: Date;
      updatedAt: Date;
      name: string;
    }>();
    expect(after!.name).toBe('Dee Dee');
    expect(after!.updatedAt.getTime()).toBeGreaterThan(after!.createdAt.getTime());
  });

  it('populates references', async () => {
    const Artist = conn.model('Artist');
    const Track = conn.model('Track', trackSchema);
    const ana = await Artist.findOne({ slug: 'ana' });
    await Track.create({ title: 'One', number: 1, artist: ana!._id, tags: ['Dark', 'peak'] });
    const t = await Track.findOne({ title: 'One' }).populate<{ artist: { name: string } }>(
      'artist',
    );
    expect(t!.artist.name).toBe('Ana');
    const leanT = await Track.findOne({ title: 'One' })
      .populate('artist', 'slug')
      .lean<{ artist: { slug: string; name?: string } }>();
    expect(leanT!.artist.slug).toBe('ana');
    expect(leanT!.artist.name).toBeUndefined();
  });

  it('counts, sorts, skips, limits and finds distinct values', async () => {
    const Track = conn.model('Track');
    await Track.deleteMany({});
    await Track.insertMany(
      Array.from({ length: 30 }, (_, i) => ({
        title: `T${String(i).padStart(2, '0')}`,
        number: i,
        releasedAt: new Date(Date.UTC(2024, 0, 1 + i)),
        tags: i % 3 === 0 ? ['ambient'] : ['techno'],
      })),
    );
    expect(await Track.countDocuments()).toBe(30);
    expect(await Track.countDocuments({ tags: 'ambient' })).toBe(10);
    expect(await Track.estimatedDocumentCount()).toBe(30);
    const page = await Track.find({})
      .sort({ number: -1 })
      .skip(5)
      .limit(3)
      .lean<{ number: number }[]>();
    expect(page.map((t) => t.number)).toEqual([24, 23, 22]);
    expect((await Track.distinct('tags')).sort()).toEqual(['ambient', 'techno']);
    const jan = await Track.find({
      releasedAt: { $gte: new Date('2024-01-10'), $lt: new Date('2024-01-15') },
    }).lean();
    expect(jan).toHaveLength(5);
    const byTitle = await Track.find({ title: { $gte: 'T10', $lt: 'T12' } }).lean<
      { title: string }[]
    >();
    expect(byTitle.map((t) => t.title)).toEqual(['T10', 'T11']);
    const regex = await Track.find({ title: { $regex: '^t0', $options: 'i' } }).countDocuments();
    expect(regex).toBe(10);
    expect(
      await Track.countDocuments({ $or: [{ number: { $in: [1, 2] } }, { title: /29$/ }] }),
    ).toBe(3);
    expect(await Track.countDocuments({ releasedAt: { $exists: true } })).toBe(30);
    expect(await Track.countDocuments({ missing: { $exists: false } })).toBe(30);
  });

  it('updates many, deletes many, inserts many ordered and unordered', async () => {
    const Track = conn.model('Track');
    const upd = await Track.updateMany({ tags: 'ambient' }, { $inc: { plays: 2 } });
    expect(upd.modifiedCount).toBe(10);
    expect(await Track.countDocuments({ plays: 2 })).toBe(10);
    const del = await Track.deleteMany({ plays: 2 });
    expect(del.deletedCount).toBe(10);

    const Artist = conn.model('Artist');
    await expect(
      Artist.insertMany([
        { name: 'E', slug: 'e' },
        { name: 'E dup', slug: 'e' },
        { name: 'F', slug: 'f' },
      ]),
    ).rejects.toMatchObject({ code: 11000 });
    expect(await Artist.countDocuments({ slug: { $in: ['e', 'f'] } })).toBe(1);
    await Artist.insertMany(
      [
        { name: 'G', slug: 'g' },
        { name: 'G dup', slug: 'g' },
        { name: 'H', slug: 'h' },
      ],
      { ordered: false },
    ).catch((e: { code: number }) => expect(e.code).toBe(11000));
    expect(await Artist.countDocuments({ slug: { $in: ['g', 'h'] } })).toBe(2);
  });

  it('keeps a counters collection with findOneAndUpdate upsert + $inc', async () => {
    const Counter = conn.model('Counter', counterSchema);
    const seqs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await Counter.findOneAndUpdate(
        { _id: 'tracks' },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: 'after' },
      ).lean();
      seqs.push(c!.seq);
    }
    expect(seqs).toEqual([1, 2, 3]);
    // concurrent increments never lose an update
    const parallel = await Promise.all(
      Array.from({ length: 20 }, () =>
        Counter.findOneAndUpdate(
          { _id: 'other' },
          { $inc: { seq: 1 } },
          { upsert: true, returnDocument: 'after' },
        ).lean(),
      ),
    );
    expect(parallel.map((c) => c!.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('supports the driver helpers the app scripts use', async () => {
    const db = conn.db!;
    const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
    expect(names).toEqual(['artists', 'counters', 'tracks']);
    expect(await db.admin().ping()).toMatchObject({ ok: 1 });
    await conn.dropDatabase();
    expect(await db.listCollections().toArray()).toEqual([]);
  });
});
