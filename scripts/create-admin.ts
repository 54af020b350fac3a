// `ADMIN_USERNAME=… ADMIN_PASSWORD=… npm run create-admin`
// Creates that user as an administrator, or promotes and re-passwords an existing one.
// Works on MONGODB_URI and on the embedded store (also while the site is running).
import { RegisterFields } from '../app/schemas/auth';
import { runScript } from './run-script';

const USAGE = 'usage: ADMIN_USERNAME=name ADMIN_PASSWORD=secret npm run create-admin';

const parsed = RegisterFields.safeParse({
  username: process.env.ADMIN_USERNAME,
  password: process.env.ADMIN_PASSWORD,
});

if (!parsed.success) {
  const problems = parsed.error.issues.map(
    (issue) =>
      `${issue.path.join('.') === 'username' ? 'ADMIN_USERNAME' : 'ADMIN_PASSWORD'}: ${issue.message}`,
  );
  console.error(`create-admin: ${problems.join('; ')} (${USAGE})`);
  process.exitCode = 1;
} else {
  const { username, password } = parsed.data;
  await runScript(
    'create-admin',
    async () => {
      const { upsertAdmin } = await import('../app/models/user.server');
      const { user, created } = await upsertAdmin(username, password);
      return `${created ? 'Created' : 'Updated'} administrator @${user.username} (id ${user.id}). Log in at /auth.`;
    },
    { db: true },
  );
}
