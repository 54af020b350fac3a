/**
 * One direction of dependencies inside app/, checked by `npm run lint` (and by
 * tests/integration/dependency-direction.test.ts):
 *
 *   root, entry.*, routes  ->  (embed, podcast)  ->  services  ->  models  ->  schemas, types, utils
 *
 * - document/, platform/, auth/, api/ and files/ hold what routes and services use (the HTML
 *   document, the process, sessions, the JSON plumbing, stored files). They use each other
 *   where needed and never import routes, components, the player or services.
 * - models import schemas/types/utils, other models, platform/ (db, env, read cache) and the
 *   storage primitive files/stored-files (a model deletes the files of a record it deletes or
 *   replaces). platform/ and files/ therefore never import models, except the two modules that
 *   drive the process from above: platform/seed and platform/startup.
 * - mail/ (the mail transport, the email templates, the queue's worker) and media/ (the media
 *   jobs' worker, the transcoder and the waveform peaks, decision 035) sit between services
 *   and models: services and platform/startup use it; it imports models, platform/ and the
 *   leaves, never routes, components, the player or services, and nothing below it imports it.
 *   fediverse/ (the ActivityPub actor on Fedify, decision 053) is a layer of the same kind:
 *   routes, services, entry.server and platform/startup use it.
 * - embed/ (the embed pages, their stylesheet, the oEmbed provider) and podcast/ (the feeds,
 *   episodes and covers, the RSS document) render whole answers for the routes (decision 052):
 *   they sit between routes and services, import services, models, files/, platform/,
 *   document/, auth/, api/ and the leaves, never routes, components or the player; nothing
 *   below the routes imports them. The frame's own script, embed/player.ts (built by esbuild
 *   for the browser), imports only the leaves.
 * - schemas/, types/, utils/ and theme/ (the site's look: colours, contrast, fonts) are
 *   client-safe leaves: they import only each other.
 * - components/ and player/ (React) never import root, routes, models, services or any
 *   `*.server` module. Root data comes from `~/document/use-root-data`.
 * - Nothing imports `~/root` but types, and another folder of app/ is imported as `~/folder/...`
 *   (a relative `../` path would slip past these rules).
 * - Dates are formatted by ~/utils/time only: no date-fns in app/ outside tests.
 *
 * Test files (`*.test.ts(x)`) may reach across layers to set up what they test; the last two
 * rules still hold for them.
 */

const folders = (...names) => `^~/(${names.join('|')})(/|$)`;

const COMMON = {
  paths: [
    {
      name: '~/root',
      allowTypeImports: true,
      message:
        'Only types may come from ~/root (it renders the site shell); read root data with useRootData from ~/document/use-root-data.',
    },
  ],
  patterns: [
    {
      // From any depth (route folders are two deep): `../../../tests/…` is fine, `../models/…` is not.
      regex: '^\\.\\./(?!(\\.\\./)+(embedded-mongo|scripts|tests)/)',
      message: 'Import another folder of app/ as ~/<folder>/..., so the dependency rules see it.',
    },
  ],
};

const forbid = (regex, message) => ({ regex, message });

const UPPER = forbid(
  folders('routes', 'components', 'player', 'services', 'embed', 'podcast'),
  'document/, platform/, auth/, api/ and files/ are used by routes and services; they never import routes, components, the player, services, embed/ or podcast/.',
);
const MODELS_FROM_BELOW = forbid(
  folders('models'),
  'Models import platform/ and files/stored-files; this folder sits below the models and must not import them.',
);

const MAIL_FROM_BELOW = forbid(
  folders('mail', 'media', 'fediverse'),
  'mail/, media/ and fediverse/ (the queue workers) are used by routes, services and platform/startup only.',
);

/** [files, ignores, restricted patterns] per layer; a file matches at most one entry. */
const LAYERS = [
  [
    ['app/services/**'],
    [],
    [
      forbid(
        folders('routes', 'components', 'player', 'embed', 'podcast'),
        'Services are called by routes, embed/ and podcast/; they never import those, components or the player (move shared constants to ~/schemas, types to ~/types).',
      ),
    ],
  ],
  [
    ['app/embed/**', 'app/podcast/**'],
    ['app/embed/player.ts'],
    [
      forbid(
        folders('routes', 'components', 'player'),
        'embed/ and podcast/ render whole answers for the routes; they never import routes, components or the player.',
      ),
    ],
  ],
  [
    ['app/embed/player.ts'],
    [],
    [
      forbid(
        '^~/(?!(schemas|types|utils)/)',
        "The embed frame's script runs in other sites' frames: it imports only schemas, types and utils.",
      ),
      forbid(
        '\\.server(\\.[jt]sx?)?$',
        "The embed frame's script never imports a *.server module.",
      ),
    ],
  ],
  [['app/document/**', 'app/auth/**', 'app/api/**'], [], [UPPER, MAIL_FROM_BELOW]],
  [
    ['app/mail/**', 'app/media/**', 'app/fediverse/**'],
    [],
    [
      forbid(
        folders('routes', 'components', 'player', 'services', 'embed', 'podcast'),
        'mail/, media/ and fediverse/ are used by services; they never import routes, components, the player, services, embed/ or podcast/.',
      ),
    ],
  ],
  [
    ['app/platform/**'],
    ['app/platform/seed.server.ts', 'app/platform/startup.server.ts'],
    [UPPER, MODELS_FROM_BELOW, MAIL_FROM_BELOW],
  ],
  [['app/platform/seed.server.ts', 'app/platform/startup.server.ts'], [], [UPPER]],
  [['app/files/**'], [], [UPPER, MODELS_FROM_BELOW, MAIL_FROM_BELOW]],
  [
    ['app/models/**'],
    [],
    [
      forbid(
        folders(
          'routes',
          'components',
          'player',
          'services',
          'auth',
          'api',
          'document',
          'mail',
          'media',
          'fediverse',
          'embed',
          'podcast',
        ),
        'Models import only schemas, types, utils, platform/ (db, env, read cache), files/stored-files and other models.',
      ),
      forbid(
        '^~/files/(?!stored-files\\.server$)',
        'Of files/, models use only the storage primitive ~/files/stored-files.server.',
      ),
      forbid(
        '^~/platform/(seed|startup)\\.server$',
        'Seeding and startup drive the models; a model importing them makes a cycle.',
      ),
    ],
  ],
  [
    ['app/schemas/**', 'app/types/**', 'app/utils/**', 'app/theme/**'],
    [],
    [
      forbid(
        '^~/(?!(schemas|types|utils|theme)/)',
        'schemas/, types/, utils/ and theme/ are client-safe leaves: they import only schemas, types, utils and theme.',
      ),
    ],
  ],
  [
    ['app/components/**', 'app/player/**'],
    [],
    [
      forbid(
        folders('routes', 'models', 'services'),
        'Components get data from their route (props or loader data); they never import routes, models or services.',
      ),
      forbid(
        '\\.server(\\.[jt]sx?)?$',
        'Components run in the browser too; they never import a *.server module.',
      ),
    ],
  ],
];

/** Outside tests, every date is formatted by ~/utils/time (tests use date-fns as an oracle). */
const DATE_LIBRARY = forbid(
  '^(date-fns|@date-fns/.*)(/|$)',
  'Format dates with ~/utils/time (the site time zone and every format, without a date library in the browser).',
);

const rule = (patterns) => [
  'error',
  { paths: COMMON.paths, patterns: [...COMMON.patterns, ...patterns] },
];

export default [
  {
    files: ['app/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': rule([DATE_LIBRARY]) },
  },
  {
    files: ['app/**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': rule([]) },
  },
  ...LAYERS.map(([files, ignores, patterns]) => ({
    files,
    ignores: [...ignores, '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': rule([DATE_LIBRARY, ...patterns]) },
  })),
];
