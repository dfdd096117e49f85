/**
 * Passes a log's chunks through unchanged while handing each complete line, decoded as UTF-8, to
 * `onLine`: a second reader of the same bytes (the page's timeline) without reading the input twice,
 * which a pipe would not allow. The chunk is read before it is passed on, so a consumer may reuse it.
 */
export async function* tapLines(
  chunks: AsyncIterable<Uint8Array>,
  onLine: (line: string) => void,
): AsyncGenerator<Uint8Array> {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of chunks) {
    rest = splitInto(rest + decoder.decode(chunk, { stream: true }), onLine);
    yield chunk;
  }
  rest += decoder.decode();
  if (rest !== '') onLine(rest);
}

const MAX_PARTIAL = 1 << 20;

/** Hands over every complete line of `text`; returns the unfinished tail (cut to a bound). */
function splitInto(text: string, onLine: (line: string) => void): string {
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
    onLine(text.slice(start, i));
    start = i + 1;
  }
  const tail = text.slice(start);
  // A line of megabytes is cut rather than held: the timeline reads only line prefixes.
  return tail.length > MAX_PARTIAL ? tail.slice(0, MAX_PARTIAL) : tail;
}
