import { useEffect, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';

let moved = false;

/**
 * Called when the host moves to another page (a menu link, signing in): that page's
 * heading then takes the focus, so a screen reader announces where the keyboard now is
 * (a fragment link does not move the focus by itself). A fresh load leaves the focus at
 * the top of the document, where "Skip to content" is the first stop.
 */
export function focusNextHeading(): void {
  moved = true;
}

/** A page's title, with the page's main actions beside it. */
export function PageHeading({ title, children }: { title: string; children?: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (moved) ref.current?.focus();
    moved = false;
  }, []);
  return (
    <div class="page-heading">
      <h1 ref={ref} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </div>
  );
}

/** A failed call's message, announced at once. */
export function ErrorMessage({ error, id }: { error?: unknown; id?: string }) {
  if (!error) return null;
  return (
    <p id={id} class="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
