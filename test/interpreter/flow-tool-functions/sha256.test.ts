// The pure SHA-256 against the FIPS 180-4 / NIST vectors, block-boundary lengths and UTF-8 input
// (expected digests computed with Python's hashlib).
import { describe, expect, it } from "vitest";
import { sha256, sha256Hex } from "../../../interpreter/flow/sha256";

describe("sha256Hex", () => {
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
    [
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ],
    ["x".repeat(55), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"],
    ["x".repeat(56), "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"],
    ["x".repeat(64), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"],
    ["ééé😀", "240eafcdba569e6d42dcef94a0f8b5c756b1576762eef473385763610de6c782"],
  ])("hashes %j", (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
  });

  it("hashes a million 'a' (many blocks)", () => {
    expect(sha256Hex("a".repeat(1_000_000))).toBe(
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    );
  });

  it("returns 32 bytes and does not modify its input", () => {
    const input = new Uint8Array([1, 2, 3]);
    const digest = sha256(input);
    expect(digest).toHaveLength(32);
    expect([...input]).toEqual([1, 2, 3]);
  });
});
