import { createContext, type ReactNode, useContext, useState } from 'react';

/**
 * What the server knows about the request being rendered: the CSP nonce of its inline
 * scripts and its request id (shown on the error page). Provided by entry.server; in the
 * browser there is no provider, so the nonce is '' (browsers hide nonces from the DOM
 * anyway, and scripts added after hydration come from our own origin).
 */
type RequestInfo = { nonce: string; requestId: string };

const RequestInfoContext = createContext<RequestInfo>({ nonce: '', requestId: '' });

export function NonceProvider({
  nonce,
  requestId,
  children,
}: {
  nonce: string;
  requestId: string;
  children: ReactNode;
}) {
  return (
    <RequestInfoContext.Provider value={{ nonce, requestId }}>
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
