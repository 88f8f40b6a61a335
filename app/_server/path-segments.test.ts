import { describe, expect, test } from "vitest";
import { malformedSegment } from "../../server/path-segments.mjs";

describe("malformedSegment (server/path-segments.mjs)", () => {
  test("names the first segment whose percent-encoding does not decode, by position and text", () => {
    expect(malformedSegment("/api/knowledge/pages/%FF")).toEqual({ position: 4, segment: "%FF" });
    expect(malformedSegment("/api/claims/%E0%A4%A/judgment")).toEqual({ position: 3, segment: "%E0%A4%A" });
    expect(malformedSegment("/crowd/%C0%AF")).toEqual({ position: 2, segment: "%C0%AF" });
    expect(malformedSegment("/a/%/%FF")).toEqual({ position: 2, segment: "%" });
    expect(malformedSegment("/%ED%A0%80")).toEqual({ position: 1, segment: "%ED%A0%80" });
  });

  test("well-formed paths pass, %00 among them (parseInput refuses NUL, naming the parameter); the query string is not looked at", () => {
    for (const url of ["/", "/api/knowledge/pages/Caf%C3%A9%20x", "/api/knowledge/pages/a%00b", "/crowd/key?x=%FF", "/a#%FF", ""]) {
      expect(malformedSegment(url), url).toBeUndefined();
    }
  });
});
