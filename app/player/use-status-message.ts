import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a status line ("Link copied to clipboard") stays before it clears itself. */
export const STATUS_MS = 4000;

/**
 * A polite status line (`role="status"`) that clears STATUS_MS after its last message:
 * `[text, say]`. Its timer stops with the component.
 */
export function useStatusMessage(): [string, (text: string) => void] {
  const [status, setStatus] = useState('');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const say = useCallback((text: string) => {
    setStatus(text);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setStatus(''), STATUS_MS);
  }, []);
  return [status, say];
}

/** Copies a link and says so; when the clipboard refuses, says the link to copy by hand. */
export async function copyLink(url: string, say: (text: string) => void): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    say('Link copied to clipboard');
  } catch {
    say(`Copy this link: ${url}`);
  }
}
