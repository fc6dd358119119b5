// Criteria → ensure expressions (docs/reference/runtime.md §19.3). Expected values were computed with the
// reference's patterns under CPython (Unicode `\s`, `\b` and IGNORECASE).
import { describe, expect, it } from "vitest";
import { compileCriteria, criterionToEnsure } from "../../../interpreter/speckit/criteria";

describe("criterionToEnsure", () => {
  it.each<[string, string | null]>([
    // rule 1: file exists
    ["file docs/auth.md exists", 'file_exists("docs/auth.md")'],
    ["FILE a.txt EXIST", 'file_exists("a.txt")'],
    ["file  a.txt   exists  ", 'file_exists("a.txt")'],
    ["file a b exists", null],
    ["file a.txt exi\u017fts", 'file_exists("a.txt")'], // long s matches s ignoring case
    ["\ufb01le a exists", null],
    // rule 2: file contains
    ['file src/a.ts contains "verifyJwt"', 'file_contains("src/a.ts", "verifyJwt")'],
    ["file a contains 'two words'", 'file_contains("a", "two words")'],
    ["file a contains bare", 'file_contains("a", "bare")'],
    ['file a contains "x"y"', 'file_contains("a", "\\"x\\"y\\"")'],
    ['file a contains "a b" c', null],
    ["file a contains", null],
    ['file p"q contains x', 'file_contains("p"q", "x")'], // the path is inserted as is
    ["file a\u3000contains\u3000x", 'file_contains("a", "x")'],
    // rule 3: tests pass
    ["All tests pass", "result.tests_pass == True"],
    ["tests are passing", "result.tests_pass == True"],
    ["test pass", "result.tests_pass == True"],
    ["Tests: PASS", "result.tests_pass == True"],
    ["unit tests pass\u00e9", "result.tests_pass == True"],
    ["tests pas\u017f", "result.tests_pass == True"],
    ["contests pass", null],
    ["tests_pass", null],
    ["the tests bypass", null],
    ["testspass", null],
    ["\u00e9tests pass", null], // é is a word character: no boundary before "tests"
    ["tests\u00e9 pass", null],
    // rule 4: lint
    ["No lint errors", "result.lint_clean == True"],
    ["NO LINT ERROR", "result.lint_clean == True"],
    ["lint passes", "result.lint_clean == True"],
    ["lint clean", "result.lint_clean == True"],
    ["linting clean", null],
    ["lint  clean", null],
    // rule 5: free-form
    ["Summary is clear", null],
    ["", null],
  ])("%j → %j", (criterion, ensure) => {
    expect(criterionToEnsure(criterion)).toBe(ensure);
  });
});

describe("compileCriteria", () => {
  it("splits ensures from judgment criteria, in order", () => {
    expect(compileCriteria(["No lint errors", "Readable", "file a exists", "Documented"])).toEqual({
      ensures: ["result.lint_clean == True", 'file_exists("a")'],
      judgment: ["Readable", "Documented"],
      needsTestsPass: false,
      needsLintClean: true,
    });
  });

  it("needs tests_pass / lint_clean when any ensure text mentions them, a needle included", () => {
    expect(compileCriteria(["file a contains tests_pass", "file b contains lint_clean"])).toMatchObject({
      ensures: ['file_contains("a", "tests_pass")', 'file_contains("b", "lint_clean")'],
      needsTestsPass: true,
      needsLintClean: true,
    });
    expect(compileCriteria([])).toEqual({
      ensures: [],
      judgment: [],
      needsTestsPass: false,
      needsLintClean: false,
    });
  });
});
