// The media type of an answer, as RFC 9110 §8.3.1 compares it: the type and
// subtype without parameters, case-insensitively.

/** `application/json` for `Application/JSON; charset=utf-8`; undefined without a Content-Type. */
export function mediaType(headers: Readonly<Record<string, string>>): string | undefined {
  return headers['content-type']?.split(';')[0]?.trim().toLowerCase();
}
