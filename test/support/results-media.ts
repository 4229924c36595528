/**
 * The bytes the results fixture server sends as an image, a sound and a file, sized so their
 * descriptions are known: 12,600 bytes read `12.3 KB`, 2,048 `2.0 KB`, 500 `500 B`.
 */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function bytes(length: number, head: number[] = []): Buffer {
  return Buffer.from(Array.from({ length }, (_, index) => head[index] ?? (index * 37) % 256));
}

export const IMAGE_BYTES = bytes(12_600, PNG_SIGNATURE);
export const AUDIO_BYTES = bytes(2_048, [...Buffer.from("RIFF")]);
export const MEDIA_BYTES = bytes(500);
