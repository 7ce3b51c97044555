import { useEffect, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';

/**
 * A page's title, focused when the page opens so a screen reader announces where the
 * keyboard now is (a fragment link does not move focus by itself).
 */
export function PageHeading({ title, children }: { title: string; children?: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
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
export function ErrorMessage({ error }: { error?: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
