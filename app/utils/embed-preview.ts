/**
 * Where the share dialog may frame its live preview of the embed (decision 038): only documents
 * first loaded at a track page or its share page carry the CSP exception
 * (`frame-src <site>/embed/`). Remix navigates without reloading the document (the player keeps
 * playing), so the document's own address, not the one in the location bar, decides.
 */
const PREVIEW_PATH = /^\/music\/\d{1,12}(?:\/share)?\/?$/;

export const isEmbedPreviewPath = (path: string) => PREVIEW_PATH.test(path);

/** In the browser: whether this document was loaded at a page whose CSP lets the preview in. */
export function documentAllowsEmbedPreview(): boolean {
  const entry = performance.getEntriesByType('navigation')[0];
  const address = entry?.name ?? window.location.href;
  return isEmbedPreviewPath(new URL(address).pathname);
}
