import sharp from 'sharp';

/**
 * sharp (libvips), as the site uses it: without libvips's operation cache (by default up to
 * 50 MB of decoded images, 100 operations and 20 open files, kept for the life of the process).
 * The site never runs the same operation twice on purpose: derivatives are made once per upload,
 * and the link cards and podcast artwork keep their own results (decision 040: about 30 MB of
 * the idle server's memory after the demo's images). The setting is libvips's, for the whole
 * process, whichever module imports sharp.
 */
sharp.cache(false);

export default sharp;
