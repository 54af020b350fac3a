/** Thrown responses for page loaders and actions (rendered by the route's ErrorBoundary). */
export function notFound(message = 'Not Found') {
  return new Response(message, { status: 404, statusText: 'Not Found' });
}

export function badRequest(message = 'Bad Request') {
  return new Response(message, { status: 400, statusText: 'Bad Request' });
}
