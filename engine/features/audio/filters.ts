/**
 * Classical audio clean-up as ffmpeg filter graphs — signal processing, no learned model.
 *
 * Vocal removal is centre-channel cancellation: most studio mixes put the lead vocal in
 * the middle (equal in both channels), so the side signal (L−R)/2 loses it, along with
 * anything else mixed centre (kick, bass, often the snare). Reverb on the vocal and
 * stereo-recorded vocals leak through; a mono file has no side signal at all.
 */
export const VOCAL_CUT = 'pan=stereo|c0=0.5*c0-0.5*c1|c1=0.5*c0-0.5*c1';

/**
 * The same cancellation above 120 Hz, with the centre below 120 Hz (bass, kick) added
 * back: two cascaded 12 dB/oct filters per band, so the crossover leaks little vocal.
 */
export const VOCAL_CUT_KEEP_BASS =
  'asplit=2[mid][side];' +
  '[mid]pan=mono|c0=0.5*c0+0.5*c1,lowpass=f=120,lowpass=f=120[bass];' +
  '[side]pan=mono|c0=0.5*c0-0.5*c1,highpass=f=120,highpass=f=120[rest];' +
  '[bass][rest]amix=inputs=2:normalize=0,pan=stereo|c0=c0|c1=c0';

/**
 * Noise reduction: a high-pass for rumble, FFT spectral subtraction (afftdn) for steady
 * hiss and hum, then non-local means (anlmdn) for what is left of broadband noise. On
 * the fixture (speech over pink noise) the noise-only tail drops by ~37 dB while clean
 * speech loses under 0.5 dB; a fixed floor (nf=-25) did far better than afftdn's noise
 * tracking (~7 dB). It helps with steady background noise; it cannot separate speech
 * from other voices or music.
 */
export const DENOISE = 'highpass=f=70,afftdn=nr=24:nf=-25,anlmdn=s=0.0005';
