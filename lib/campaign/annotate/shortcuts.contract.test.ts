import { describe, expect, it } from "vitest";
import { actionOfKey, effectiveKeys, shortcutPrefsSchema } from "./shortcuts.contract";

const problems = (value: unknown) => {
  const r = shortcutPrefsSchema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("shortcutPrefsSchema", () => {
  it("takes on/off and remapped keys, letters stored lower-case", () => {
    expect(shortcutPrefsSchema.parse({ enabled: false, keys: { sufficient: "Y" } })).toEqual({ enabled: false, keys: { sufficient: "y" } });
    expect(shortcutPrefsSchema.parse({ enabled: true })).toEqual({ enabled: true, keys: {} });
  });

  it("names the field of an unknown action, a key that is not one printable character, a reserved key and a duplicate", () => {
    expect(problems({ enabled: true, keys: { submit: "x" } })).toEqual([
      expect.stringMatching(/^keys\.submit: is not a shortcut action; the actions are sufficient, /),
    ]);
    expect(problems({ enabled: true, keys: { sentence: "ab" } })).toEqual([
      expect.stringMatching(/^keys\.sentence: must be exactly one character/),
    ]);
    expect(problems({ enabled: true, keys: { sentence: "\t" } })).toEqual([
      expect.stringMatching(/^keys\.sentence: must be a printable character/),
    ]);
    expect(problems({ enabled: true, keys: { sentence: "/" } })).toEqual([
      expect.stringMatching(/^keys\.sentence: is reserved by the browser/),
    ]);
    // U and u are one key: the remap clashes with the default of "unreadable".
    expect(problems({ enabled: true, keys: { sufficient: "U" } })).toEqual(['keys.sufficient: "u" is already the key of unreadable']);
    // Two remapped actions on one key: the later one is named.
    expect(problems({ enabled: true, keys: { sufficient: "x", sentence: "x" } })).toEqual([
      'keys.sentence: "x" is already the key of sufficient',
    ]);
    // A swap is fine.
    expect(problems({ enabled: true, keys: { sufficient: "2", insufficient: "1" } })).toEqual([]);
    expect(problems({ enabled: "yes", keys: {}, more: 1 })).toEqual([
      "enabled: must be true or false",
      expect.stringMatching(/^: Unrecognized key/),
    ]);
  });
});

describe("effectiveKeys and actionOfKey", () => {
  it("fills in the defaults and matches letters without case", () => {
    const keys = effectiveKeys({ enabled: true, keys: { sufficient: "y" } });
    expect(keys).toMatchObject({ sufficient: "y", insufficient: "2", unreadable: "u", sentence: "s", instructions: "?" });
    expect(actionOfKey(keys, "Y")).toBe("sufficient");
    expect(actionOfKey(keys, "1")).toBeUndefined();
    expect(actionOfKey(effectiveKeys(null), "U")).toBe("unreadable");
  });
});

describe("the context key", () => {
  it("is C by default, remappable, and refused for another action while C is its key", () => {
    expect(actionOfKey(effectiveKeys(null), "C")).toBe("context");
    expect(actionOfKey(effectiveKeys({ enabled: true, keys: { context: "k" } }), "k")).toBe("context");
    const taken = shortcutPrefsSchema.safeParse({ enabled: true, keys: { sentence: "c" } });
    expect(taken.success).toBe(false);
    expect(taken.error?.issues[0]).toMatchObject({ path: ["keys", "sentence"], message: '"c" is already the key of context' });
  });

  it("leaves a key stored before it existed to the action it was given", () => {
    expect(actionOfKey(effectiveKeys({ enabled: true, keys: { sentence: "c" } }), "c")).toBe("sentence");
  });
});
