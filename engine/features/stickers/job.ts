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
