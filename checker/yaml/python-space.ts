// The characters of Python's str.isspace() (what str.strip(), int() and float() strip), as a
// regular-expression character class. Written as a string: the class includes control characters.
export const PY_SPACE =
  "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
