// Path text helpers and the Python-compatible UTF-8 decode errors of the workspace tools.
import { describe, expect, it } from "vitest";
import { joinPath, pathlibText, resolveAgainst } from "../../../interpreter/workspace/paths";
import { decodeUtf8, pythonDecodeError } from "../../../interpreter/workspace/utf8";

describe("paths", () => {
  it("resolveAgainst keeps absolute paths and joins relative ones to cwd", () => {
    expect(resolveAgainst("/cwd", "/abs/x")).toBe("/abs/x");
    expect(resolveAgainst("/cwd", "rel/x")).toBe("/cwd/rel/x");
    expect(resolveAgainst("/cwd", ".")).toBe("/cwd");
    expect(resolveAgainst("/cwd", "")).toBe("/cwd");
    expect(resolveAgainst("/", "x")).toBe("/x");
  });

  it("joinPath adds one separator", () => {
    expect(joinPath("/a", "b")).toBe("/a/b");
    expect(joinPath("/", "b")).toBe("/b");
  });

  it.each([
    ["tasks/", "tasks"],
    ["./tasks/./x//", "tasks/x"],
    ["", "."],
    [".", "."],
    ["./", "."],
    ["a/../b", "a/../b"],
    ["/", "/"],
    ["//a/", "//a"],
    ["///a", "/a"],
  ])("pathlibText(%j) = %j", (given, text) => {
    expect(pathlibText(given)).toBe(text);
  });
});

describe("utf8", () => {
  it("decodes valid UTF-8 and keeps a byte order mark", () => {
    expect(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xc3, 0xa9]))).toEqual({
      ok: true,
      text: "\uFEFFaé",
    });
  });

  // Messages as CPython 3 prints them for bytes.decode("utf-8").
  it.each([
    [[0xe2, 0x82, 0x41], "'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte"],
    [[0xe2], "'utf-8' codec can't decode byte 0xe2 in position 0: unexpected end of data"],
    [[0xf0, 0x90], "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data"],
    [[0xf0, 0x80], "'utf-8' codec can't decode byte 0xf0 in position 0: invalid continuation byte"],
    [[0x61, 0x62, 0xff], "'utf-8' codec can't decode byte 0xff in position 2: invalid start byte"],
    [[0xed, 0xa0, 0x80], "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte"],
    [[0xc0, 0x80], "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte"],
    [
      [0xf4, 0x90, 0x80, 0x80],
      "'utf-8' codec can't decode byte 0xf4 in position 0: invalid continuation byte",
    ],
    [[0xf1, 0x80, 0x80, 0x41], "'utf-8' codec can't decode bytes in position 0-2: invalid continuation byte"],
  ])("%j → %s", (bytes, message) => {
    expect(pythonDecodeError(new Uint8Array(bytes))).toBe(message);
    expect(decodeUtf8(new Uint8Array(bytes))).toEqual({ ok: false, reason: message });
  });
});
