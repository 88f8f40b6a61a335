import "server-only";
import { z } from "zod";
import { ROLES } from "./roles.contract";

export const usernameSchema = z
  .string()
  .trim()
  .min(2, "must be at least 2 characters")
  .max(64, "must be at most 64 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "may hold only letters, digits, '.', '_' and '-', starting with a letter or digit");

export const passwordSchema = z.string().min(8, "must be at least 8 characters").max(256, "must be at most 256 characters");

export const roleSchema = z.enum(ROLES);

export const signInSchema = z.object({
  username: z.string().trim().min(1, "is required").max(64),
  password: z.string().min(1, "is required").max(256),
});

export const createUserSchema = z.object({
  username: usernameSchema,
  role: roleSchema,
  /** Without a password the user gets an invite link to set one. */
  password: passwordSchema.optional(),
});

export const setupSchema = z.object({ username: usernameSchema, password: passwordSchema });

/** Days a new API token lasts by default. */
export const TOKEN_DEFAULT_DAYS = 90;

export const createTokenSchema = z.object({
  name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  /** Days until the token expires; null: never. */
  expiresInDays: z
    .number()
    .int("must be a whole number of days")
    .min(1, "must be at least 1")
    .max(3650, "must be at most 3650")
    .nullable()
    .default(TOKEN_DEFAULT_DAYS),
});

/** A signed-in user changes their own password: the current one is required. */
export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, "is required").max(256, "must be at most 256 characters"),
  newPassword: passwordSchema,
});

/** A coordinator sets another user's password. */
export const setPasswordSchema = z.object({ password: passwordSchema });

/** A coordinator issues a single-use password reset link for another user. */
export const resetLinkSchema = z.object({
  expiresInHours: z
    .number()
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(24 * 7, "must be at most 168")
    .default(24),
});

export const createInviteSchema = z.object({
  role: roleSchema,
  /** Hours until the link expires. */
  expiresInHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(72),
});

export const acceptInviteSchema = z.object({
  token: z.string().min(10, "is not an invite token").max(200),
  /** Required when the invite is not for an existing account. */
  username: usernameSchema.optional(),
  password: passwordSchema,
});

export type SignInInput = z.infer<typeof signInSchema>;
export type CreateUserInput = z.infer<typeof createUserSchema>;
export type CreateInviteInput = z.infer<typeof createInviteSchema>;
export type AcceptInviteInput = z.infer<typeof acceptInviteSchema>;
/** What createApiToken takes: `expiresInDays` left out means the default. */
export type CreateTokenInput = z.input<typeof createTokenSchema>;
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
