import { createCanvas } from '@napi-rs/canvas';

/** A small synthetic photo (sky gradient, sun, ground) for previews of photo effects and for tests, as PNG bytes. */
export function samplePhoto(width = 96, height = 64): Buffer {
  const c = createCanvas(width, height);
  const g = c.getContext('2d');
  const sky = g.createLinearGradient(0, 0, width, height);
  sky.addColorStop(0, '#3a7bd5');
  sky.addColorStop(1, '#f2994a');
  g.fillStyle = sky;
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#ffe14d';
  g.beginPath();
  g.arc(width / 3, height / 2.5, height / 5, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = '#2d6a4f';
  g.fillRect(0, height * 0.7, width, height * 0.3);
  return c.toBuffer('image/png');
}
