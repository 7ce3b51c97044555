import { useState } from 'preact/hooks';
import { api } from './api.js';
import { useSubmit } from './form.js';
import { ErrorMessage } from './page-heading.js';
import { saveToken } from './token.js';

/**
 * Asks for ADMIN_TOKEN, tries it on GET /api/admin/keys, and keeps it in this tab's
 * sessionStorage (token.ts): never in the URL, never in a cookie.
 */
export function SignIn({ notice, onSignedIn }: { notice?: string; onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    await api.check(token.trim());
    saveToken(token.trim());
    onSignedIn();
  });
  // a refusal of this attempt, else why the last session ended
  const shown = error ?? (busy ? undefined : notice);

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
          aria-invalid={shown ? 'true' : undefined}
          aria-describedby={shown ? 'sign-in-error' : undefined}
        />
        <p id="sign-in-help" class="help">
          The server's <code>ADMIN_TOKEN</code>. It is kept in this tab only and sent as a header; closing the tab forgets it.
        </p>
        <ErrorMessage id="sign-in-error" error={shown} />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
