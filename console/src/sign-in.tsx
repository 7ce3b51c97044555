import { useState } from 'preact/hooks';
import { api, ApiFailure } from './api.js';
import { saveToken } from './token.js';

/**
 * Asks for ADMIN_TOKEN, tries it on GET /api/admin/keys, and keeps it in this tab's
 * sessionStorage (token.ts): never in the URL, never in a cookie.
 */
export function SignIn({ notice, onSignedIn }: { notice?: string; onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>(notice);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.check(token.trim());
      saveToken(token.trim());
      onSignedIn();
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" class="sign-in">
      <h1>Manifold console</h1>
      <form onSubmit={submit} aria-describedby="sign-in-help">
        <label for="admin-token">Admin token</label>
        <input
          id="admin-token"
          name="admin-token"
          type="password"
          autocomplete="current-password"
          required
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'sign-in-error' : undefined}
        />
        <p id="sign-in-help" class="help">
          The server's <code>ADMIN_TOKEN</code>. It is kept in this tab only and sent as a header; closing the tab forgets it.
        </p>
        {error && (
          <p id="sign-in-error" class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
