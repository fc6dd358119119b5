// The tokenizer of Python's re._parser (3.11), over code points: a token is one character or a
// backslash with the character after it. Errors carry Python's message and position.
import type { PyReError } from "./python-ast";

/** Thrown inside the parser; parsePython turns it into a result. */
export class PyReSyntaxError extends Error {
  constructor(readonly error: PyReError) {
    super(`${error.message} at position ${error.position}`);
  }
}

export class Tokens {
  private readonly chars: readonly string[];
  private index = 0;
  /** The current token, or null at the end. */
  next: string | null = null;

  constructor(pattern: string) {
    this.chars = Array.from(pattern);
    this.advance();
  }

  private advance(): void {
    let index = this.index;
    const char = this.chars[index];
    if (char === undefined) {
      this.next = null;
      return;
    }
    let token = char;
    if (char === "\\") {
      index += 1;
      const after = this.chars[index];
      if (after === undefined)
        throw new PyReSyntaxError({
          message: "bad escape (end of pattern)",
          position: this.chars.length - 1,
        });
      token += after;
    }
    this.index = index + 1;
    this.next = token;
  }

  match(token: string): boolean {
    if (this.next !== token) return false;
    this.advance();
    return true;
  }

  get(): string | null {
    const token = this.next;
    this.advance();
    return token;
  }

  /** Up to n tokens from `charset`, concatenated. */
  getWhile(n: number, charset: string): string {
    let out = "";
    for (let k = 0; k < n; k++) {
      const c = this.next;
      if (c === null || c.length !== 1 || !charset.includes(c)) break;
      out += c;
      this.advance();
    }
    return out;
  }

  /** The text up to `terminator` (consumed), as Python's getuntil. */
  getUntil(terminator: string, name: string): string {
    let result = "";
    for (;;) {
      const c = this.next;
      this.advance();
      if (c === null) {
        if (result === "") throw this.error(`missing ${name}`);
        throw this.error(`missing ${terminator}, unterminated name`, Array.from(result).length);
      }
      if (c === terminator) {
        if (result === "") throw this.error(`missing ${name}`, 1);
        break;
      }
      result += c;
    }
    return result;
  }

  tell(): number {
    return this.index - (this.next === null ? 0 : Array.from(this.next).length);
  }

  seek(index: number): void {
    this.index = index;
    this.advance();
  }

  error(message: string, offset = 0): PyReSyntaxError {
    return new PyReSyntaxError({ message, position: this.tell() - offset });
  }
}
