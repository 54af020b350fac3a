import { Pause, Play } from '~/components/site/icons';
import { cn } from '~/utils/cn';

import { usePlayer } from './player-provider';

/** The play slot of the mobile bottom bar: disabled until a track is loaded. */
export function MobilePlayButton({ className }: { className?: string }) {
  const player = usePlayer();
  const hasTrack = player.current !== null;
  return (
    <button
      type="button"
      onClick={player.toggle}
      disabled={!hasTrack}
      aria-pressed={hasTrack ? player.playing : undefined}
      className={cn(
        'bottom-bar-slot disabled:cursor-not-allowed disabled:opacity-50',
        player.playing ? 'text-primary' : 'text-foreground',
        className,
      )}
    >
      {player.playing ? (
        <Pause aria-hidden className="h-5 w-5" />
      ) : (
        <Play aria-hidden className="h-5 w-5" />
      )}
      <span>{player.playing ? 'Playing' : 'Play'}</span>
    </button>
  );
}
