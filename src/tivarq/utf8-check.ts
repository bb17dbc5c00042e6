/**
 * A strict UTF-8 check of bytes as they stream past, which says where the first bad sequence starts:
 * a decoder only says that one is there. Its own file because every whole-file reader (a JSON
 * document, a LongMemEval file) locates an encoding error with it.
 */

/**
 * Checks bytes are UTF-8 as they stream past (the rules of a strict decoder:
 * no overlong forms, no surrogates, nothing past U+10FFFF), and says where the
 * first bad sequence starts, as a byte offset into the whole file.
 */
export class Utf8Check {
  private need = 0
  private lower = 0x80
  private upper = 0xbf
  private sequenceStart = 0
  private offset = 0

  /** The file offset of the first invalid sequence in `chunk`, or -1 when all is well so far. */
  update(chunk: Uint8Array): number {
    for (let i = 0; i < chunk.length; i++, this.offset++) {
      const byte = chunk[i]!
      if (this.need === 0) {
        if (byte <= 0x7f) continue
        this.sequenceStart = this.offset
        if (byte >= 0xc2 && byte <= 0xdf) this.need = 1
        else if (byte >= 0xe0 && byte <= 0xef) {
          this.need = 2
          if (byte === 0xe0) this.lower = 0xa0
          if (byte === 0xed) this.upper = 0x9f
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          this.need = 3
          if (byte === 0xf0) this.lower = 0x90
          if (byte === 0xf4) this.upper = 0x8f
        } else return this.offset
        continue
      }
      if (byte < this.lower || byte > this.upper) return this.sequenceStart
      this.lower = 0x80
      this.upper = 0xbf
      this.need--
    }
    return -1
  }

  /** At the end of the file: the offset of a sequence it cut off, or -1. */
  end(): number {
    return this.need > 0 ? this.sequenceStart : -1
  }
}
