/**
 * A sticker or card render as sent to a render-pool worker (engine/features/effects/render-worker.ts):
 * which drawing, its validated params, and any client images (avatars, covers) already
 * fetched through the SSRF guard on the main thread.
 */
export type StickerKind = 'ttp' | 'attp' | 'quote' | 'card';
export interface StickerJob {
  sticker: StickerKind;
  params: Record<string, unknown>;
  images?: Record<string, Uint8Array>;
}

/**
 * How a worker says a client's colour is one the canvas does not know: errors cross the
 * render pool's thread boundary as plain Errors, so the message carries it (stickers/run.ts
 * answers it 400 naming `color`).
 */
export const UNKNOWN_COLOR = 'unknown colour: ';
