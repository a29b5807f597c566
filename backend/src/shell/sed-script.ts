/**
 * Whether a sed script only reads: a small parser of sed's command syntax (addresses, then one
 * command letter and its arguments), refusing the commands that write or run something: `w`/`W`
 * (write a file), `r`/`R` (read one in), `e` (run a command), and the `w` and `e` flags of `s`.
 * Anything it does not know is refused: unknown is not read-only.
 */

/** Commands that take no argument (besides an address) and only print, move or edit the buffer. */
const BARE = new Set(["p", "P", "d", "D", "n", "N", "g", "G", "h", "H", "x", "l", "=", "q", "Q", "z", "F", "{", "}"]);
/** Commands whose argument runs to the end of the line (or `;` for labels). */
const LABELS = new Set([":", "b", "t", "T"]);
const TEXT = new Set(["a", "i", "c"]);

class Refused extends Error {}

export function sedScriptReadsOnly(script: string): boolean {
  let i = 0;
  const peek = () => script[i];
  const skipBlank = () => {
    while (i < script.length && /[ \t]/.test(script[i])) i++;
  };
  /** A delimited part (`/re/`, the parts of `s` and `y`); returns nothing, checks it ends. */
  const delimited = (delimiter: string) => {
    while (i < script.length && script[i] !== delimiter) {
      if (script[i] === "\\") i++;
      if (script[i] === "\n" && delimiter !== "\n") throw new Refused();
      i++;
    }
    if (script[i] !== delimiter) throw new Refused();
    i++;
  };
  const address = () => {
    const c = peek();
    if (c === undefined) return;
    if (/[0-9]/.test(c)) {
      while (/[0-9~]/.test(peek() ?? "")) i++;
    } else if (c === "$") i++;
    else if (c === "/") {
      i++;
      delimited("/");
      while (/[IM]/.test(peek() ?? "")) i++;
    } else if (c === "\\") {
      const d = script[i + 1];
      if (!d) throw new Refused();
      i += 2;
      delimited(d);
    }
  };
  try {
    while (i < script.length) {
      skipBlank();
      if (peek() === ";" || peek() === "\n") {
        i++;
        continue;
      }
      if (i >= script.length) break;
      address();
      if (peek() === ",") {
        i++;
        if (peek() === "+" || peek() === "~") i++;
        address();
      }
      skipBlank();
      if (peek() === "!") {
        i++;
        skipBlank();
      }
      const command = script[i++];
      if (command === undefined) throw new Refused();
      if (BARE.has(command)) {
        // `q` and `Q` take an optional exit code.
        while (/[0-9]/.test(peek() ?? "")) i++;
      } else if (LABELS.has(command)) {
        while (i < script.length && script[i] !== "\n" && script[i] !== ";") i++;
      } else if (TEXT.has(command)) {
        // GNU: text to the end of the line, with backslash-newline continuing it.
        while (i < script.length && script[i] !== "\n") i += script[i] === "\\" ? 2 : 1;
      } else if (command === "s") {
        const d = script[i++];
        if (!d || d === "\n" || d === "\\") throw new Refused();
        delimited(d);
        delimited(d);
        // Flags: g, p, a number, i/I, m/M are read-only; w writes a file, e runs the pattern space.
        while (i < script.length && !/[;\n}]/.test(script[i])) {
          if (!/[gpiImM0-9 \t]/.test(script[i])) throw new Refused();
          i++;
        }
      } else if (command === "y") {
        const d = script[i++];
        if (!d || d === "\n" || d === "\\") throw new Refused();
        delimited(d);
        delimited(d);
      } else throw new Refused(); // w, W, r, R, e, v and anything unknown
    }
    return true;
  } catch (err) {
    if (err instanceof Refused) return false;
    throw err;
  }
}
