/** The media types the preview serves from the repository, by extension: images, audio, video,
 *  PDF (`site-media.ts`; the load reports a medium named link to anything else). */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  ico: "image/x-icon",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  pdf: "application/pdf",
};

/** The media type of a path, by its extension; undefined for any other file. */
export function mediaTypeOf(path: string): string | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext !== undefined ? MEDIA_TYPES[ext] : undefined;
}
