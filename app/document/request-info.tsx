import { createContext, useContext, useState, type ReactNode } from 'react';

/**
 * What the server knows about the request being rendered: the CSP nonce of its inline
 * scripts and its request id (shown on the error page). Provided by entry.server; in the
 * browser there is no provider, so the nonce is '' (browsers hide nonces from the DOM
 * anyway, and scripts added after hydration come from our own origin).
 */
type RequestInfo = { nonce: string; requestId: string; siteCss?: string | null };

const RequestInfoContext = createContext<RequestInfo>({ nonce: '', requestId: '' });

export function NonceProvider({
  nonce,
  requestId,
  siteCss = null,
  children,
}: {
  nonce: string;
  requestId: string;
  /** The site stylesheet's text, inlined in the head (null: link it). */
  siteCss?: string | null;
  children: ReactNode;
}) {
  return (
    <RequestInfoContext.Provider value={{ nonce, requestId, siteCss }}>
      {children}
    </RequestInfoContext.Provider>
  );
}

/** The CSP nonce for inline <script> elements (server render), '' in the browser. */
export const useNonce = () => useContext(RequestInfoContext).nonce;

export const REQUEST_ID_ATTRIBUTE = 'data-request-id';

/**
 * The id of the request whose error page is being shown. On the server it comes from the
 * request; in the browser it is read back from the server-rendered error page during
 * hydration. After a client-side navigation there is no server page, hence no id ('').
 */
export function useErrorRequestId(): string {
  const fromServer = useContext(RequestInfoContext).requestId;
  const [id] = useState(() => {
    if (fromServer) return fromServer;
    if (typeof document === 'undefined') return '';
    return (
      document.querySelector(`[${REQUEST_ID_ATTRIBUTE}]`)?.getAttribute(REQUEST_ID_ATTRIBUTE) ?? ''
    );
  });
  return id;
}

export const SITE_CSS_ID = 'site-css';

/**
 * The site stylesheet inlined in the head, so the first paint waits for no stylesheet request
 * (Lighthouse: no render-blocking resource). On the server entry.server provides the built CSS;
 * in the browser it is read back from the server-rendered `<style>` during hydration, so both
 * render the same element. null: the server could not read it, the page links it instead.
 */
export function useSiteCss(): string | null {
  const fromServer = useContext(RequestInfoContext).siteCss;
  const [css] = useState(() => {
    if (fromServer !== undefined && fromServer !== null) return fromServer;
    if (typeof document === 'undefined') return null;
    return document.getElementById(SITE_CSS_ID)?.textContent ?? null;
  });
  return css;
}
