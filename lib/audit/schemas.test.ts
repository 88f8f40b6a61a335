import { describe, expect, it } from "vitest";
import { changePasswordSchema, createTokenSchema, resetLinkSchema, setPasswordSchema } from "@/lib/auth/schemas";
import { fieldProblems } from "@/lib/errors";
import { auditPageQuerySchema, auditQuerySchema } from "./schemas";

/** The field each hostile value is refused on. */
function refusedField(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return [...new Set(fieldProblems(result.error as never).map((p) => p.field))];
}

describe("the new inputs refuse hostile values, naming the field", () => {
  it("audit query string", () => {
    for (const cursor of ["1 or 1=1", "-1", "0", "1e400", "1.5", "9007199254740993", "'); DROP TABLE audit_log; --"]) {
      expect(refusedField(auditQuerySchema, { cursor }), cursor).toEqual(["cursor"]);
    }
    for (const since of ["yesterday", "'); DROP TABLE audit_log; --", "2026-13-45"]) {
      expect(refusedField(auditQuerySchema, { since }), since).toEqual(["since"]);
    }
    for (const limit of ["0", "501", "x", "-5"]) expect(refusedField(auditQuerySchema, { limit }), limit).toEqual(["limit"]);
    expect(refusedField(auditQuerySchema, { order: "<script>alert(1)</script>" })).toEqual(["order"]);
    expect(auditQuerySchema.parse({})).toEqual({ order: "desc", limit: 50 });
  });

  it("audit filters, on the API and the page", () => {
    for (const schema of [auditQuerySchema, auditPageQuerySchema]) {
      for (const action of ["<script>", "batch.import'--", "", "BATCH.IMPORT"])
        expect(refusedField(schema, { action }), action).toEqual(["action"]);
      for (const target of ["batch;drop", "users"]) expect(refusedField(schema, { target }), target).toEqual(["target"]);
      for (const actor of ["a\u0000b", "x".repeat(101)]) expect(refusedField(schema, { actor }), actor).toEqual(["actor"]);
      for (const day of ["2026-02-30", "yesterday", "2026-12-01T00:00:00Z", "1e9", "2026-1-5"]) {
        expect(refusedField(schema, { from: day, to: day }), day).toEqual(["from", "to"]);
      }
      expect(refusedField(schema, { from: "2026-12-02", to: "2026-12-01" })).toEqual(["to"]);
      expect(schema.parse({ action: "batch.import", actor: " Ana ", target: "batch", from: "2026-12-01", to: "2026-12-01" })).toMatchObject(
        {
          action: "batch.import",
          actor: "Ana",
          target: "batch",
          from: new Date("2026-12-01T00:00:00Z"),
          to: new Date("2026-12-01T00:00:00Z"),
        },
      );
    }
    expect(refusedField(auditPageQuerySchema, { after: "1 or 1=1" })).toEqual(["after"]);
  });

  it("passwords, tokens and reset links", () => {
    expect(refusedField(changePasswordSchema, { currentPassword: "", newPassword: "long enough 1" })).toEqual(["currentPassword"]);
    expect(refusedField(changePasswordSchema, { currentPassword: "x", newPassword: "short" })).toEqual(["newPassword"]);
    expect(refusedField(changePasswordSchema, { currentPassword: "x".repeat(257), newPassword: "y".repeat(257) })).toEqual([
      "currentPassword",
      "newPassword",
    ]);
    expect(refusedField(setPasswordSchema, { password: { $ne: null } })).toEqual(["password"]);
    expect(refusedField(setPasswordSchema, { password: ["a-long-password"] })).toEqual(["password"]);
    for (const expiresInDays of [0, -1, 1.5, 3651, "90", Number.NaN]) {
      expect(refusedField(createTokenSchema, { name: "n", expiresInDays }), String(expiresInDays)).toEqual(["expiresInDays"]);
    }
    expect(createTokenSchema.parse({ name: "n" }).expiresInDays).toBe(90);
    expect(createTokenSchema.parse({ name: "n", expiresInDays: null }).expiresInDays).toBeNull();
    for (const expiresInHours of [0, 169, "24", 2.5]) expect(refusedField(resetLinkSchema, { expiresInHours })).toEqual(["expiresInHours"]);
  });
});
