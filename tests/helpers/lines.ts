/** A child's output, line by line as it comes (without the newline). */
export async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true })
    let newline: number
    while ((newline = buffer.indexOf('\n')) >= 0) {
      yield buffer.slice(0, newline)
      buffer = buffer.slice(newline + 1)
    }
  }
  if (buffer) yield buffer
}
