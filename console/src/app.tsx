import { useEffect, useState } from 'preact/hooks';
import { whenSignedOut } from './api.js';
import { forgetToken, readToken } from './token.js';
import { SignIn } from './sign-in.js';
import { KeysPage } from './keys/keys-page.js';
import { UsagePage } from './usage/usage-page.js';
import { JobsPage } from './jobs/jobs-page.js';
import { HealthPage } from './health-page.js';
import { EndpointsPage } from './endpoints-page.js';
import { focusNextHeading } from './page-heading.js';

/** The pages, in menu order; the URL's fragment (`#/usage`) names the one shown, so Back and bookmarks work. */
const PAGES = [
  { id: 'keys', title: 'Keys', Page: KeysPage },
  { id: 'usage', title: 'Usage', Page: UsagePage },
  { id: 'jobs', title: 'Jobs', Page: JobsPage },
  { id: 'health', title: 'Health', Page: HealthPage },
  { id: 'endpoints', title: 'Unavailable endpoints', Page: EndpointsPage },
] as const;

const pageFromHash = () => PAGES.find((p) => `#/${p.id}` === location.hash) ?? PAGES[0];

export function App() {
  const [signedIn, setSignedIn] = useState(() => readToken() !== null);
  const [notice, setNotice] = useState<string | undefined>();
  const [page, setPage] = useState(pageFromHash);

  useEffect(() => {
    whenSignedOut((message) => {
      setNotice(message);
      setSignedIn(false);
    });
    const follow = () => {
      focusNextHeading();
      setPage(pageFromHash());
    };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);

  useEffect(() => {
    document.title = `${page.title} · Manifold console`;
  }, [page]);

  if (!signedIn)
    return (
      <SignIn
        notice={notice}
        onSignedIn={() => {
          focusNextHeading();
          setNotice(undefined);
          setSignedIn(true);
        }}
      />
    );

  const { Page } = page;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Manifold console</span>
        <nav aria-label="Console pages">
          <ul>
            {PAGES.map((p) => (
              <li key={p.id}>
                <a href={`#/${p.id}`} aria-current={p.id === page.id ? 'page' : undefined}>
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          class="quiet"
          onClick={() => {
            forgetToken();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page key={page.id} title={page.title} />
      </main>
    </>
  );
}
