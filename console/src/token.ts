/**
 * The admin token lives in this tab's sessionStorage only: it is sent as
 * `Authorization: Bearer …` by api.ts, never put in a URL, and is gone when the tab
 * closes. (A cookie would make the browser send it by itself, so every admin route
 * would need CSRF defences; a header is sent only by this page's own code.)
 */
const STORAGE_KEY = 'manifold.adminToken';

export function readToken(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    // storage disabled (a privacy mode): the token lives as long as the page
    return memoryToken;
  }
}

let memoryToken: string | null = null;

export function saveToken(token: string): void {
  memoryToken = token;
  try {
    sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    /* kept in memory only */
  }
}

export function forgetToken(): void {
  memoryToken = null;
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    /* nothing stored */
  }
}
