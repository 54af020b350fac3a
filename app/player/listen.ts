/**
 * Adds each listener to `target` and returns what removes them all: an effect's cleanup.
 * `M` is the target's event map (`HTMLMediaElementEventMap`, `DocumentEventMap`), so each
 * listener gets its event's type.
 */
export function listen<M>(
  target: EventTarget,
  listeners: { [K in keyof M]?: (event: M[K]) => void },
): () => void {
  const entries = Object.entries(listeners) as [string, EventListener][];
  for (const [type, listener] of entries) target.addEventListener(type, listener);
  return () => {
    for (const [type, listener] of entries) target.removeEventListener(type, listener);
  };
}
