/** Resolves a URL the server returned (absolute, or a path on the API host). */
export function resolveUrl(baseUrl: string, url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `${baseUrl}${url.startsWith('/') ? '' : '/'}${url}`;
}
