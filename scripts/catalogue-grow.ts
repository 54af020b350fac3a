import crypto from 'node:crypto';

import { type CopyContext, copyOf, type Counts, type Doc, type Kind, KINDS } from './catalogue-lib';

/**
 * Growing a store for `npm run bench:catalogue`, through the app's own modules: its connection
 * (so every write bumps the shared data version the running site trusts, decision 039), its
 * models' collections (bulk `insertMany`, no per-document hooks) and its serial-id counters (a
 * block of ids reserved with one `$inc`, so the counter is past every id inserted and the
 * site's next record gets the next id). The bench's two accounts are made by `createUser` and
 * `upsertAdmin`, as registration and `npm run create-admin` make them.
 */

const { connectDb, disconnectDb } = await import('../app/platform/db.server');
const { Counter } = await import('../app/models/counter.server');
const { Track } = await import('../app/models/track.server');
const { BlogPost } = await import('../app/models/blog-post.server');
const { Show } = await import('../app/models/show.server');
const { GalleryImage } = await import('../app/models/gallery-image.server');
const { Subscriber } = await import('../app/models/subscriber.server');
const { ContactMessage } = await import('../app/models/contact-message.server');
const { User, createUser, upsertAdmin } = await import('../app/models/user.server');
const { siteToday } = await import('../app/utils/time');

type Collection = {
  countDocuments(filter?: Doc): Promise<number>;
  find(filter: Doc): { sort(s: Doc): { toArray(): Promise<Doc[]> } };
  insertMany(docs: Doc[], options?: { ordered?: boolean }): Promise<unknown>;
};

/** Each kind: its model's collection and its serial-id counter (the serialIdPlugin's name). */
const TABLES: Record<Kind, { collection: () => Collection; counter: string }> = {
  tracks: { collection: () => Track.collection as unknown as Collection, counter: 'tracks' },
  posts: { collection: () => BlogPost.collection as unknown as Collection, counter: 'blog_posts' },
  shows: { collection: () => Show.collection as unknown as Collection, counter: 'shows' },
  gallery: {
    collection: () => GalleryImage.collection as unknown as Collection,
    counter: 'gallery',
  },
  subscribers: {
    collection: () => Subscriber.collection as unknown as Collection,
    counter: 'subscribers',
  },
  users: { collection: () => User.collection as unknown as Collection, counter: 'users' },
  messages: {
    collection: () => ContactMessage.collection as unknown as Collection,
    counter: 'contact_messages',
  },
};

const BATCH = 2_000;

export type Templates = Record<Kind, Doc[]>;

export type Accounts = {
  member: { username: string; password: string };
  admin: { username: string; password: string };
};

async function withDb<T>(uri: string, fn: () => Promise<T>): Promise<T> {
  await connectDb({ uri });
  try {
    return await fn();
  } finally {
    // Stops this process's data-version poll (it would count as the site's background) after
    // its last bump reached the store.
    await disconnectDb();
  }
}

/**
 * The bench's member and admin (made by the app's functions), then the demo records as the
 * seed stored them, read once before any copy exists: the templates of every copy. Users: the
 * demo has none, so the member's record is the template of the 3,000 accounts.
 */
export async function prepare(
  uri: string,
): Promise<{ templates: Templates; demo: Counts; accounts: Accounts }> {
  return withDb(uri, async () => {
    const accounts: Accounts = {
      member: { username: 'bench-member', password: 'bench-member-password' },
      admin: { username: 'bench-admin', password: 'bench-admin-password' },
    };
    if (!(await User.exists({ usernameLower: accounts.member.username })))
      await createUser(accounts.member);
    await upsertAdmin(accounts.admin.username, accounts.admin.password);
    const templates = {} as Templates;
    const demo = {} as Counts;
    for (const kind of KINDS) {
      const collection = TABLES[kind].collection();
      const filter = kind === 'users' ? { usernameLower: accounts.member.username } : {};
      templates[kind] = await collection.find(filter).sort({ id: 1 }).toArray();
      demo[kind] = await collection.countDocuments();
      if (templates[kind].length === 0) throw new Error(`no demo ${kind} to copy`);
    }
    return { templates, demo, accounts };
  });
}

/** Reserve `count` serial ids: the counter moves past all of them in one `$inc`. */
async function reserveIds(counter: string, count: number): Promise<number> {
  const after = await Counter.findOneAndUpdate(
    { _id: counter },
    { $inc: { seq: count } },
    { upsert: true, returnDocument: 'after', lean: true },
  );
  if (!after) throw new Error(`counter ${counter} could not be moved`);
  return after.seq - count + 1;
}

/**
 * Grow each collection to its target with copies of its templates. `copied` holds how many
 * copies of each kind exist already (copy numbers continue from there: unique slugs, emails,
 * usernames across steps). Returns how many documents it inserted.
 */
export async function grow(
  uri: string,
  templates: Templates,
  target: Counts,
  copied: Counts,
  log: (line: string) => void,
): Promise<number> {
  return withDb(uri, async () => {
    let inserted = 0;
    const now = Date.now();
    const today = siteToday();
    for (const kind of KINDS) {
      const collection = TABLES[kind].collection();
      const need = target[kind] - (await collection.countDocuments());
      if (need <= 0) continue;
      const started = Date.now();
      const firstId = await reserveIds(TABLES[kind].counter, need);
      const list = templates[kind];
      for (let done = 0; done < need; done += BATCH) {
        const batch: Doc[] = [];
        for (let i = done; i < Math.min(need, done + BATCH); i++) {
          const n = copied[kind] + i;
          const context: CopyContext = {
            n,
            id: firstId + i,
            now,
            today,
            uuid: crypto.randomUUID(),
          };
          batch.push(copyOf(kind, list[n % list.length]!, context));
        }
        await collection.insertMany(batch, { ordered: true });
      }
      copied[kind] += need;
      inserted += need;
      log(`    ${kind}: +${need.toLocaleString('en-US')} in ${Date.now() - started} ms`);
    }
    return inserted;
  });
}
