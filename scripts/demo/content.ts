/**
 * Demo content for Night Shore, inserted by the seed on a first start with an empty database.
 *
 * Plain data and types only (no app imports). Media files live in `demo/media` and are
 * produced by `npx tsx scripts/demo/generate-media.ts`; the seed copies them into
 * `UPLOADS_DIR`. Dates are relative to the day the seed runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type DemoTrack = {
  title: string;
  artist: string;
  album: string | null;
  /** One of TRACK_TYPES (app/schemas/track.ts). */
  type: 'Single' | 'EP' | 'Album' | 'Mix' | 'Live set' | 'Radio show';
  /** Liner notes or a mix's description (paragraphs separated by blank lines). */
  description?: string;
  /** A mix's tracklist as an admin types it: `TIME ARTIST - TITLE [LABEL]`, one row per line. */
  tracklist?: string;
  /** File name in demo/media/audio. */
  audio: string;
  /** File name in demo/media/covers. */
  cover: string;
  featured: boolean;
  daysAgo: number;
};

export type DemoGalleryImage = {
  title: string;
  description: string | null;
  /** File name in demo/media/gallery. */
  file: string;
  daysAgo: number;
};

export type DemoBlogPost = {
  title: string;
  slug: string;
  category: 'NEWS' | 'EVENTS' | 'REVIEWS';
  excerpt: string;
  /** Paragraphs separated by blank lines. */
  content: string;
  /** File name in demo/media/blog. */
  image: string;
  daysAgo: number;
};

export type DemoShow = {
  title: string;
  venue: string;
  /** 'City, ST' */
  location: string;
  /** Negative = in the past. */
  daysFromToday: number;
  /** Free text such as '8:00 PM'. */
  time: string;
  ticketUrl: string | null;
  description: string | null;
};

export type DemoSubscriber = { name: string; email: string; daysAgo: number };

export type DemoMessage = {
  name: string;
  email: string;
  subject: 'Booking Inquiry' | 'Media Request' | 'Collaboration' | 'General Question';
  message: string;
  daysAgo: number;
};

/**
 * Absolute path of `demo/media`. Resolved from this module's URL when run from source (tsx,
 * vitest); when bundled into the Remix server build the module URL points into `build/`, so
 * the project root (the working directory of `npm start`) is the fallback.
 */
export const DEMO_MEDIA_DIR: string = (() => {
  const fromModule = fileURLToPath(new URL('../../demo/media', import.meta.url));
  if (fs.existsSync(fromModule)) return fromModule;
  return path.resolve(process.cwd(), 'demo/media');
})();

/** File names in demo/media/about (three photos for the About page). */
export const aboutPhotos: string[] = ['studio-night.jpg', 'on-stage.jpg', 'boardwalk-crew.jpg'];

/** File name in demo/media (home hero background, 1920×1080). */
export const heroImage: string = 'hero.jpg';

const p = (...paragraphs: string[]) => paragraphs.join('\n\n');

export const demoTracks: DemoTrack[] = [
  {
    title: 'Night Shore Radio 01: Last Train from Long Branch',
    artist: 'Night Shore',
    album: null,
    type: 'Mix',
    description: p(
      'The first Night Shore Radio mix: seven of our own tracks, back to back, from the first wave of Saltwater Signals to the sunrise at the Carousel House.',
      'Recorded in one take at the studio on Cookman Avenue. Every row of the tracklist is a link to its place in the set.',
    ),
    // Starts are where each track begins in night-shore-mix.mp3 (built by generate-media.ts
    // from the demo tracks in MIX_ORDER there, so the rows land exactly on each track).
    tracklist: [
      '0:00 Night Shore feat. Mara Quinn - Saltwater Signals [Low Tide]',
      '0:40 Night Shore - Ocean Avenue, 3 A.M. [Boardwalk Nocturnes]',
      '1:18 Night Shore - Neon Boardwalk [Boardwalk Nocturnes]',
      '1:54 Night Shore - Convention Hall',
      '2:33 Night Shore - Low Tide Static [Low Tide]',
      '3:14 Sunset Pier - Palace Lights (Sunset Pier Remix)',
      '3:54 Night Shore feat. Theo Vance - Atlantic at Dawn (Live at the Carousel House)',
    ].join('\n'),
    audio: 'night-shore-mix.mp3',
    cover: 'night-shore-mix.jpg',
    featured: false,
    daysAgo: 5,
  },
  {
    title: 'Ocean Avenue, 3 A.M.',
    artist: 'Night Shore',
    album: 'Boardwalk Nocturnes',
    type: 'Album',
    audio: 'ocean-avenue-3am.mp3',
    cover: 'ocean-avenue-3am.jpg',
    featured: true,
    daysAgo: 12,
  },
  {
    title: 'Neon Boardwalk',
    artist: 'Night Shore',
    album: 'Boardwalk Nocturnes',
    type: 'Album',
    audio: 'neon-boardwalk.mp3',
    cover: 'neon-boardwalk.jpg',
    featured: false,
    daysAgo: 12,
  },
  {
    title: 'Convention Hall',
    artist: 'Night Shore',
    album: null,
    type: 'Single',
    audio: 'convention-hall.mp3',
    cover: 'convention-hall.jpg',
    featured: false,
    daysAgo: 48,
  },
  {
    title: 'Saltwater Signals',
    artist: 'Night Shore feat. Mara Quinn',
    album: 'Low Tide',
    type: 'EP',
    audio: 'saltwater-signals.mp3',
    cover: 'saltwater-signals.jpg',
    featured: false,
    daysAgo: 95,
  },
  {
    title: 'Low Tide Static',
    artist: 'Night Shore',
    album: 'Low Tide',
    type: 'EP',
    audio: 'low-tide-static.mp3',
    cover: 'low-tide-static.jpg',
    featured: false,
    daysAgo: 95,
  },
  {
    title: 'Palace Lights (Sunset Pier Remix)',
    artist: 'Night Shore, remixed by Sunset Pier',
    album: null,
    type: 'Single',
    audio: 'palace-lights-remix.mp3',
    cover: 'palace-lights-remix.jpg',
    featured: false,
    daysAgo: 140,
  },
  {
    title: 'Atlantic at Dawn (Live at the Carousel House)',
    artist: 'Night Shore feat. Theo Vance',
    album: null,
    type: 'Live set',
    audio: 'atlantic-at-dawn-live.mp3',
    cover: 'atlantic-at-dawn-live.jpg',
    featured: false,
    daysAgo: 200,
  },
];

export const demoGallery: DemoGalleryImage[] = [
  {
    title: 'Hands Up at the Warehouse',
    description:
      'The moment the kick came back in after the breakdown of "Convention Hall". Three hundred people, one low end.',
    file: 'crowd-warehouse.jpg',
    daysAgo: 9,
  },
  {
    title: 'Boardwalk After Midnight',
    description:
      'The lamps along the boards, the wheel still lit on the horizon, and the Atlantic doing what it does.',
    file: 'boardwalk-midnight.jpg',
    daysAgo: 16,
  },
  {
    title: 'The Modular Wall',
    description:
      'Where most of Boardwalk Nocturnes was patched together. Half the cables go nowhere; we keep them for luck.',
    file: 'studio-modular.jpg',
    daysAgo: 23,
  },
  {
    title: 'Three Shadows',
    description:
      'Backlit during soundcheck at the Carousel House. No filter, just a very bright PAR can.',
    file: 'band-silhouettes.jpg',
    daysAgo: 31,
  },
  {
    title: 'Sunrise, Fifth Avenue Beach',
    description:
      'What the end of a show looks like when you refuse to go home. The sky did the mastering.',
    file: 'beach-sunrise.jpg',
    daysAgo: 44,
  },
  {
    title: 'The Sign',
    description:
      'Our neon sign, built by a friend in Neptune out of salvaged tubes. It hangs behind the decks at every hometown show.',
    file: 'neon-sign.jpg',
    daysAgo: 58,
  },
  {
    title: 'Ocean Avenue, Southbound',
    description: 'Night drive reference shot for the album cover. Windows down, demo on loop.',
    file: 'night-drive.jpg',
    daysAgo: 73,
  },
  {
    title: 'Pier Lights',
    description: null,
    file: 'pier-lights.jpg',
    daysAgo: 90,
  },
];

export const demoPosts: DemoBlogPost[] = [
  {
    title: 'Boardwalk Nocturnes Is Out Now',
    slug: 'boardwalk-nocturnes-is-out-now',
    category: 'NEWS',
    excerpt:
      'Our first full-length record is finally here: nine tracks written between midnight and sunrise on the Asbury Park boardwalk.',
    content: p(
      'It is out. After two winters, one flooded basement and more late-night drives down Ocean Avenue than any of us can count, Boardwalk Nocturnes is available everywhere you listen to music, and right here on the site.',
      'The record started as a voice memo. Dani was walking home past Convention Hall at three in the morning, the wind off the Atlantic was doing that low hum it does in February, and she hummed a bass line over it. That memo became "Ocean Avenue, 3 A.M.", and the rest of the album grew around it like barnacles on a piling.',
      'We wrote almost everything at night. Not because it is romantic (it is, a little) but because that is when the town is quiet enough to hear the sea from the studio window. If you listen closely to the end of "Neon Boardwalk" you can hear a gull who absolutely did not sign a release form.',
      'Sonically we wanted the warmth of the old analog polysynths we grew up hearing on movie soundtracks, but with the weight of a proper club record. Every kick drum on the album was synthesised from scratch, and the pads were recorded through a tape machine we bought from a retired wedding DJ in Long Branch.',
      'Thank you to everyone who came to the listening sessions, who sent us voice notes of their own night drives, and who kept asking when it would be done. It is done. Turn it up, roll the windows down, and head for the water.',
    ),
    image: 'album-release.jpg',
    daysAgo: 12,
  },
  {
    title: 'Summer Shows: Hometown Night at the Wavelength Ballroom',
    slug: 'summer-shows-hometown-night',
    category: 'EVENTS',
    excerpt:
      'We are playing a proper hometown show, plus dates in Philadelphia, Brooklyn and Hoboken. Here is everything you need to know.',
    content: p(
      'The summer run is booked, and it starts where everything starts for us: Asbury Park. We will be at the Wavelength Ballroom on Ocean Avenue for a full live set, the neon sign, and a few tracks from the record we have never played in public.',
      'After that we head to Underpass in Philadelphia, then over the river to the Greenpoint Substation in Brooklyn, and we close the run at Pier 13 Social in Hoboken, where the Manhattan skyline does our lighting design for free.',
      'Doors open early at every show because we are bringing friends: Sunset Pier will open the hometown night with a DJ set, and Mara Quinn will join us on stage for "Saltwater Signals" at least twice. We are not telling you which nights.',
      'Tickets for the first three dates are on sale now through the links on the Shows page. The Hoboken date is confirmed but the ticketing partner is not, so keep an eye on the newsletter; subscribers hear first.',
      'A note on accessibility: every venue on this run has step-free access to the main floor. If you need anything to make the night work for you, write to us through the contact page and we will sort it out with the venue before you arrive.',
      'See you down the shore.',
    ),
    image: 'summer-shows.jpg',
    daysAgo: 6,
  },
  {
    title: 'Inside the Studio: How We Build a Track',
    slug: 'inside-the-studio-how-we-build-a-track',
    category: 'NEWS',
    excerpt:
      'People keep asking how a Night Shore track comes together. Short answer: a drum machine, a bad idea and the tide tables.',
    content: p(
      'We get asked about our process at almost every show, usually by someone holding a phone with a half-finished project on it. So here is the honest version.',
      'Every track begins with a tempo and a place. "Convention Hall" is 122 beats per minute because that is roughly how fast you walk across the old hall when the heating is off. "Low Tide Static" is slower because the beach is wider and you are in no hurry.',
      'Then comes the kick. We spend an embarrassing amount of time on a single kick drum: a sine wave dropping from about 150 hertz to 40, shaped until it feels like a door closing somewhere in the building. If the kick is right, the track usually follows.',
      'Pads come next, always detuned, always a little too long. We run them through a spring reverb and a cheap tape echo, then back off the level until you feel them more than hear them. The arpeggios are the last thing we write and the first thing people hum.',
      'Finally, we test everything in the car. If a mix holds up on the drive from the studio to the Belmar marina with the windows down, it is finished. If it does not, we go back in.',
      'No plug-in will give you the sound of a place. Go and stand somewhere at night, listen for a while, then try to write down what you heard.',
    ),
    image: 'studio-process.jpg',
    daysAgo: 27,
  },
  {
    title: 'Review: Sunset Pier Turns "Palace Lights" Into a Slow-Motion Ride',
    slug: 'review-sunset-pier-palace-lights-remix',
    category: 'REVIEWS',
    excerpt:
      'We asked our friends Sunset Pier for a remix. They sent back something slower, stranger and, frankly, better than the original.',
    content: p(
      'Reviewing a remix of your own track is a strange job, so consider this less a review and more a thank-you letter with opinions.',
      'The original "Palace Lights" is a brisk, bright thing, built around the memory of the old Palace amusement building and its painted grin. Sunset Pier slowed it down, pulled the chords into a minor key and replaced our glittery arpeggio with a pluck that sounds like someone playing a harp inside a parking garage.',
      'The best moment comes just after the halfway mark. The drums drop out, the pad swells, and for a few bars it is just the chords and the hiss of the room. When the kick comes back it feels earned in a way our version never quite managed.',
      'If we have one criticism, it is that the remix ends too soon. We asked for an extended version. We were told, politely, no.',
      'Verdict: four and a half gulls out of five. Play it late, play it loud, play it on the way home.',
    ),
    image: 'remix-review.jpg',
    daysAgo: 140,
  },
  {
    title: 'Review: A Night at the Carousel House',
    slug: 'review-a-night-at-the-carousel-house',
    category: 'REVIEWS',
    excerpt:
      'A guest review of our ambient sunrise set at the Carousel House, written by a listener who stayed until the sun came up.',
    content: p(
      'We invited Jordan Ellis, a longtime listener and occasional heckler, to write up our sunrise set at the Carousel House. We did not edit a word, which we may come to regret.',
      '"I have seen Night Shore in basements, in a bowling alley and once on the back of a flatbed truck, but never like this. The Carousel House is all windows and echo, and by four in the morning the room was lit only by their neon sign and the first grey light over the water.',
      "\"They played slower than usual: long pads, a bass line you could feel in the floorboards, and a live reworking of 'Atlantic at Dawn' with Theo Vance on a very battered Rhodes. Nobody talked. A few people lay down on the floor. Nobody asked them to get up.",
      '"If there was a weak spot it was the middle of the set, where two of the newer tracks blurred together. But when the sun finally cleared the horizon, right as the last chord faded, the whole room just breathed out at once. You cannot plan that. Or maybe they did.',
      '"Bring a jacket. Stay until the end."',
    ),
    image: 'carousel-review.jpg',
    daysAgo: 190,
  },
  {
    title: 'Low Tide EP Release Party Recap',
    slug: 'low-tide-ep-release-party-recap',
    category: 'EVENTS',
    excerpt:
      'Two hundred of you packed a former laundromat for the Low Tide launch. Here is what happened, and what we learned.',
    content: p(
      'When we announced the Low Tide release party in a former laundromat on Cookman Avenue, a few people assumed it was a joke. It was not, and two hundred of you showed up anyway.',
      'The room had terrible acoustics and perfect vibes. We hung the neon sign from a dryer vent, Mara Quinn sang "Saltwater Signals" standing on a folding table, and the power went out exactly once, for about nine seconds, during the quietest part of "Low Tide Static". Honestly, it improved the track.',
      'Thank you to the neighbours for their patience, to the crew who carried our gear up and down the block in the rain, and to the person who brought a tray of zeppole at one in the morning. You know who you are.',
      'We learned a few things: bring twice as many extension cords as you think you need; a laundromat has more reverb than any plug-in; and this town still shows up for strange ideas.',
      'Photos from the night are in the gallery. The EP is on the Music page. Next time, we are thinking of a bowling alley.',
    ),
    image: 'release-party.jpg',
    daysAgo: 92,
  },
];

export const demoShows: DemoShow[] = [
  {
    title: 'Night Shore: Hometown Night',
    venue: 'The Wavelength Ballroom',
    location: 'Asbury Park, NJ',
    daysFromToday: 9,
    time: '8:00 PM',
    ticketUrl: 'https://tickets.wavelengthballroom.example.com/night-shore-hometown',
    description:
      'A full live set with the neon sign, special guest Mara Quinn and an opening DJ set from Sunset Pier. All ages until 10 PM, 21+ after.',
  },
  {
    title: 'Boardwalk Nocturnes Tour: Philadelphia',
    venue: 'Underpass',
    location: 'Philadelphia, PA',
    daysFromToday: 24,
    time: '9:00 PM',
    ticketUrl: 'https://www.underpassphilly.example.com/events/night-shore',
    description: 'Our first headline show in Philadelphia. Late set, long versions.',
  },
  {
    title: 'Boardwalk Nocturnes Tour: Brooklyn',
    venue: 'Greenpoint Substation',
    location: 'Brooklyn, NY',
    daysFromToday: 47,
    time: '10:00 PM',
    ticketUrl: 'https://greenpointsubstation.example.org/calendar/night-shore',
    description:
      'An all-night bill with friends from the Brooklyn ambient scene. We play at midnight.',
  },
  {
    title: 'Sunset Sessions on the Hudson',
    venue: 'Pier 13 Social',
    location: 'Hoboken, NJ',
    daysFromToday: 78,
    time: '7:30 PM',
    ticketUrl: null,
    description:
      'An early-evening open-air set facing the skyline. Ticketing partner to be announced.',
  },
  {
    title: 'Low Tide EP Release Party',
    venue: 'The Spin Cycle (former laundromat)',
    location: 'Asbury Park, NJ',
    daysFromToday: -92,
    time: '9:00 PM',
    ticketUrl: null,
    description:
      'The release party for the Low Tide EP. Two hundred people and one nine-second blackout.',
  },
  {
    title: 'Sunrise Set',
    venue: 'The Carousel House',
    location: 'Asbury Park, NJ',
    daysFromToday: -195,
    time: '4:00 AM',
    ticketUrl: 'https://carouselhouse.example.com/events/sunrise-set',
    description: 'An ambient set timed to end at sunrise over the Atlantic.',
  },
  {
    title: 'Jersey City Warehouse Night',
    venue: 'Bay Street Works',
    location: 'Jersey City, NJ',
    daysFromToday: -240,
    time: '10:00 PM',
    ticketUrl: 'https://baystreetworks.example.com/night-shore',
    description: null,
  },
];

export const demoSubscribers: DemoSubscriber[] = [
  { name: 'Alex Moreno', email: 'alex.moreno@example.com', daysAgo: 2 },
  { name: 'Priya Raman', email: 'priya.raman@example.org', daysAgo: 5 },
  { name: 'Sam Kowalski', email: 'sam.k@example.com', daysAgo: 11 },
  { name: 'Jordan Ellis', email: 'jordan.ellis@example.org', daysAgo: 19 },
  { name: 'Casey Lin', email: 'casey.lin@example.com', daysAgo: 33 },
  { name: 'Riley Donovan', email: 'riley.donovan@example.com', daysAgo: 61 },
];

export const demoMessages: DemoMessage[] = [
  {
    name: 'Morgan Hale',
    email: 'morgan.hale@example.com',
    subject: 'Booking Inquiry',
    message:
      'Hi Night Shore! We run a monthly night at a small venue in Red Bank and would love to have you play a two-hour set in the autumn. Could you send over your availability and technical rider?',
    daysAgo: 1,
  },
  {
    name: 'Tess Abernathy',
    email: 'tess@example.org',
    subject: 'Media Request',
    message:
      'I write for a regional music blog and would like to interview the band about Boardwalk Nocturnes. A short phone call or an email Q&A would both work. Do you have a press kit with photos?',
    daysAgo: 3,
  },
  {
    name: 'Luis Ortega',
    email: 'luis.ortega@example.com',
    subject: 'Collaboration',
    message:
      'I make short films about the Jersey Shore off-season and your track "Low Tide Static" is exactly the mood of my current project. Would you be open to licensing it, or even scoring a few minutes?',
    daysAgo: 8,
  },
  {
    name: 'Dana Whitfield',
    email: 'dana.whitfield@example.com',
    subject: 'General Question',
    message:
      'Loved the Carousel House set. Is the live version of "Atlantic at Dawn" going to be released on vinyl at some point?',
    daysAgo: 14,
  },
];
