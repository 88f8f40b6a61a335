import { describe, expect, it } from "vitest";
import { formatAxisTime, formatDay, formatTime, formatTimeSeconds } from "./format";

describe("formatTime and its variants", () => {
  it("write a time in UTC, year first, on a 24-hour clock", () => {
    expect(formatTime("2025-11-29T22:12:45.120Z")).toBe("2025-11-29 22:12 UTC");
    expect(formatTime(new Date("2026-12-02T01:05:54Z"))).toBe("2026-12-02 01:05 UTC");
    // An offset is turned into UTC, never shown in the reader's zone.
    expect(formatTime("2026-12-02T03:05:54+02:00")).toBe("2026-12-02 01:05 UTC");
    expect(formatTimeSeconds("2026-12-02T01:05:04.900Z")).toBe("2026-12-02 01:05:04 UTC");
    expect(formatAxisTime("2026-12-02T01:05:54Z", false)).toBe("01:05");
    expect(formatAxisTime("2026-12-02T01:05:54Z", true)).toBe("2026-12-02 01:05");
    expect(formatDay("2026-12-02T23:59:59-02:00")).toBe("2026-12-03");
    // A day that does not exist rolls over, so it never writes back as itself (the audit filters refuse "2026-02-30").
    expect(formatDay("2026-02-30T00:00:00Z")).not.toBe("2026-02-30");
  });

  it("write a dash for no time or a text that is not one", () => {
    for (const none of [null, undefined, "", "yesterday"]) {
      expect(formatTime(none)).toBe("—");
      expect(formatTimeSeconds(none)).toBe("—");
      expect(formatDay(none)).toBe("");
    }
  });
});
