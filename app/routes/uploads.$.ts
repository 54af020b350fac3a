import type { LoaderFunctionArgs } from '@remix-run/node';
import { uploadsDir } from '~/server/env.server';
import { serveFile } from '~/files/serve-file.server';

/**
 * /uploads/* — uploaded covers, images and audio from UPLOADS_DIR, with byte ranges (so audio
 * can seek), validators and long-lived caching. Remix routes GET and HEAD here.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return serveFile(request, { root: uploadsDir(), mount: '/uploads/' });
}
