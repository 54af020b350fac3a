/**
 * Whose objects an incoming activity may name (decision 053, "Inbox safety"). Checked on the
 * parsed body before Fedify reads it (mount.server.ts), against the host of the key that
 * signed the request:
 *
 * - the `actor` is on the signer's host (401 otherwise: one server may not speak for another's
 *   accounts; Fedify checks the exact actor once it has fetched the key);
 * - the activity's own `id`, when it has one, is on the actor's host;
 * - a `Create`, `Update`, `Delete` or `Undo` names an object of the actor's own host (what a
 *   sender makes, changes, removes or takes back is its own; a `Delete` of one of this site's
 *   tracks, or an `Undo` of another server's follow, is refused; an `Undo` whose object is
 *   inline without an id is judged by that object's `actor`);
 * - a `Follow` follows this site's actor.
 *
 * Other activities (likes, boosts) may name anyone's objects; the site ignores them (decision
 * 053). A body that is not a JSON object with a `type` is left to Fedify, which answers 400.
 */
export type HostRefusal = { status: 400 | 401; message: string };

const OWN_OBJECT_TYPES = new Set(['Create', 'Update', 'Delete', 'Undo']);

/** The URL an activity's field names: a string, or an object's `id`; null when neither. */
function idOf(value: unknown): URL | null {
  const id =
    typeof value === 'string'
      ? value
      : value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string'
        ? (value as { id: string }).id
        : null;
  if (id === null) return null;
  try {
    return new URL(id);
  } catch {
    return null;
  }
}

/** The first of a field that may be one value or a list. */
const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

/** The actor an activity names (a URL, or an object with an `id`; the first of a list), or null. */
export function activityActor(body: unknown): URL | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  return idOf(first((body as { actor?: unknown }).actor));
}

export function refuseForeignObjects(
  body: unknown,
  signerHost: string,
  siteActorId: string,
): HostRefusal | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const activity = body as Record<string, unknown>;
  const type = first(activity.type);
  if (typeof type !== 'string') return null;

  const actor = activityActor(activity);
  if (!actor) return { status: 400, message: 'The activity names no actor.' };
  const host = actor.host.toLowerCase();
  if (host !== signerHost.toLowerCase()) {
    return { status: 401, message: 'The activity’s actor is not the signer’s.' };
  }
  if (activity.id !== undefined) {
    const id = idOf(activity.id);
    if (!id || id.host.toLowerCase() !== host) {
      return { status: 400, message: 'The activity’s id is not on its actor’s server.' };
    }
  }
  if (type === 'Follow') {
    if (idOf(first(activity.object))?.href !== siteActorId) {
      return { status: 400, message: 'A Follow sent here must follow this site.' };
    }
  } else if (OWN_OBJECT_TYPES.has(type)) {
    const object = first(activity.object);
    // An Undo may carry the activity it takes back inline without its id: that one's actor.
    const named =
      idOf(object) ??
      (type === 'Undo' && object && typeof object === 'object'
        ? idOf(first((object as { actor?: unknown }).actor))
        : null);
    if (!named || named.host.toLowerCase() !== host) {
      return { status: 400, message: `A ${type} may only name its actor’s own objects.` };
    }
  }
  return null;
}
