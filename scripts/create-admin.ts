// `ADMIN_USERNAME=… ADMIN_PASSWORD=… npm run create-admin`
// Creates that user as an administrator, or promotes and re-passwords an existing one.
// Works on MONGODB_URI and on the embedded store (also while the site is running).
import { upsertAdmin } from '../app/models/user.server';
import { connectDb, disconnectDb } from '../app/platform/db.server';
import { RegisterFields } from '../app/schemas/auth';

const parsed = RegisterFields.safeParse({
  username: process.env.ADMIN_USERNAME,
  password: process.env.ADMIN_PASSWORD,
});
if (!parsed.success) {
  console.error('Usage: ADMIN_USERNAME=name ADMIN_PASSWORD=secret npm run create-admin');
  for (const issue of parsed.error.issues)
    console.error(
      `  ${issue.path.join('.') === 'username' ? 'ADMIN_USERNAME' : 'ADMIN_PASSWORD'}: ${issue.message}`,
    );
  process.exit(1);
}

await connectDb();
try {
  const { user, created } = await upsertAdmin(parsed.data.username, parsed.data.password);
  console.log(
    `${created ? 'Created' : 'Updated'} administrator @${user.username} (id ${user.id}). Log in at /auth.`,
  );
} finally {
  await disconnectDb();
}
