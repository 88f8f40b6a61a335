import { sql } from "drizzle-orm";
import {
  bigint,
  customType,
  boolean,
  date,
  check,
  index,
  integer,
  json,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

// ── Enums ────────────────────────────────────────────────────────────────────

/** What "endorsed" means in a campaign (lib/campaign/quality/). */
export const AGGREGATIONS = ["majority", "dawid-skene"] as const;
/** KILT's five tasks (lib/kilt/task-kind.ts says what each means). */
export type TaskKind = "qa" | "fact-checking" | "slot-filling" | "entity-linking" | "dialogue";
/** FEVER's labels, as KILT keeps them. */
export type FactLabel = "SUPPORTS" | "REFUTES";
export type Aggregation = (typeof AGGREGATIONS)[number];

export const userRole = pgEnum("user_role", ["coordinator", "annotator", "crowd"]);
export const batchStatus = pgEnum("batch_status", ["draft", "launched", "paused", "closed"]);
export const verdict = pgEnum("verdict", ["sufficient", "insufficient"]);
export const standingStatus = pgEnum("standing_status", ["active", "paused"]);
export const pauseReason = pgEnum("pause_reason", ["coordinator", "gold_rule", "speed_rule"]);

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const id = () => bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity();
const ref = (name: string) => bigint(name, { mode: "number" });
/** A required reference to a row that takes this one with it when deleted. */
const cascadeRef = (name: string, target: () => AnyPgColumn) => ref(name).notNull().references(target, { onDelete: "cascade" });
/**
 * A required copy of the row's passage's campaign or batch, with no foreign key of its own: the
 * passage's key deletes the row with the passage, whose campaign and batch take it with them. A
 * foreign key here would lock the campaign's and the batch's one row (FOR KEY SHARE) from every
 * claim and judgment written, the rows all concurrent annotators share (docs/judgment-path.md).
 */
const hotRef = (name: string) => ref(name).notNull();

/** A user's judging shortcuts (lib/campaign/annotate/shortcuts.contract.ts parses and applies them). */
export interface ShortcutPrefs {
  enabled: boolean;
  /** Action → key (KeyboardEvent.key), for the remapped ones. */
  keys: Record<string, string>;
}

/** What an annotator can flag a judgment for (besides a free comment). */
export const JUDGMENT_FLAGS = ["broken_text", "offensive", "question_wrong"] as const;
export type JudgmentFlag = (typeof JUDGMENT_FLAGS)[number];

// ── Accounts ─────────────────────────────────────────────────────────────────

export const users = pgTable(
  "users",
  {
    id: id(),
    username: text("username").notNull(),
    role: userRole("role").notNull(),
    /** argon2id hash; null until an invited user sets a password. */
    passwordHash: text("password_hash"),
    /** Stable pseudonymous id written in exports instead of the username. */
    pseudonym: text("pseudonym").notNull(),
    createdBy: ref("created_by"),
    createdAt: createdAt(),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** The judging page's single-key shortcuts: off, or remapped (null: the defaults). WCAG 2.1.4. */
    shortcuts: jsonb("shortcuts").$type<ShortcutPrefs>(),
  },
  (t) => [uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`), uniqueIndex("users_pseudonym_key").on(t.pseudonym)],
);

export const sessions = pgTable(
  "sessions",
  {
    /** SHA-256 of the cookie value; the cookie value itself is never stored. */
    id: text("id").primaryKey(),
    userId: cascadeRef("user_id", () => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    /** The token acts as this user. */
    userId: cascadeRef("user_id", () => users.id),
    name: text("name").notNull(),
    /** SHA-256 of the token; the token is shown once at creation. */
    tokenHash: text("token_hash").notNull(),
    /** First characters of the token, to recognise it in a list. */
    prefix: text("prefix").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Null: never expires. Past it, the token is refused with a 401 saying so. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("api_tokens_hash_key").on(t.tokenHash), index("api_tokens_user_idx").on(t.userId)],
);

export const invites = pgTable(
  "invites",
  {
    id: id(),
    tokenHash: text("token_hash").notNull(),
    role: userRole("role").notNull(),
    /** Set when the invite completes an existing account that has no password yet. */
    userId: ref("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdBy: ref("created_by")
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    usedBy: ref("used_by").references(() => users.id),
  },
  (t) => [uniqueIndex("invites_token_hash_key").on(t.tokenHash)],
);

/** Failed sign-in attempts, for rate limiting per account and per address. */
export const signInAttempts = pgTable(
  "sign_in_attempts",
  {
    id: id(),
    username: text("username").notNull(),
    address: text("address").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("sign_in_attempts_username_idx").on(sql`lower(${t.username})`, t.createdAt),
    index("sign_in_attempts_address_idx").on(t.address, t.createdAt),
  ],
);

/**
 * Every coordinator action that changes people, campaigns, batches or standings: who (the actor's
 * id and username at the time), what, on which target, from which address, when. Append-only.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    actorId: ref("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorUsername: text("actor_username").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    details: jsonb("details").notNull().default({}),
    address: text("address"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_created_idx").on(t.createdAt)],
);

// ── Campaigns ────────────────────────────────────────────────────────────────

export const campaigns = pgTable(
  "campaigns",
  {
    id: id(),
    name: text("name").notNull(),
    /** R: judgments per passage. */
    judgmentsPerPassage: smallint("judgments_per_passage").notNull().default(3),
    /** T: sufficient judgments that endorse a passage. */
    endorsementThreshold: smallint("endorsement_threshold").notNull().default(2),
    showAnswers: boolean("show_answers").notNull().default(false),
    /** The gold rule, applied to each kind of gold apart (sufficient gold; negative gold and decoys): after this many of a kind… */
    goldMinJudgments: integer("gold_min_judgments").notNull().default(4),
    /** …an annotator whose smoothed accuracy on that kind is below this is paused. */
    goldAccuracyThreshold: real("gold_accuracy_threshold").notNull().default(0.3),
    leaseSeconds: integer("lease_seconds").notNull().default(600),
    earlyStop: boolean("early_stop").notNull().default(false),
    instructions: text("instructions").notNull().default(""),
    /** Membership: every annotator, present and future, unless turned off. */
    allAnnotators: boolean("all_annotators").notNull().default(true),
    /** Passages an annotator aims to judge per session (shown as progress on the judging page); null: no goal. */
    sessionGoal: integer("session_goal"),
    /** Dashboard warnings: an annotator is flagged with more than this share of judgments under 2 s… */
    warnFastShare: real("warn_fast_share").notNull().default(0.5),
    /** …or agreement with the majority below this… */
    warnMinAgreement: real("warn_min_agreement").notNull().default(0.6),
    /** …once they have this many judgments (compared ones, for agreement). */
    warnMinJudgments: integer("warn_min_judgments").notNull().default(20),
    /** When an annotator finds none of a question's passages sufficient, ask for another passage or an explanation (KILT's campaign did). */
    askWhenNoneSufficient: boolean("ask_when_none_sufficient").notNull().default(true),
    /** Automatic decoys (negative gold): paragraphs without any answer token, this many per 100 passages of a batch (0: none). Never exported. */
    decoysPer100: smallint("decoys_per_100").notNull().default(0),
    /** Span check of sufficient gold: a highlight may be this share longer than the sentences holding the expected span. */
    goldSpanSlack: real("gold_span_slack").notNull().default(0.2),
    /** What "endorsed" means: T of R counted votes (majority) or a Dawid–Skene posterior of at least 0.5 once finished. */
    aggregation: text("aggregation").$type<Aggregation>().notNull().default("majority"),
    createdBy: ref("created_by").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("campaigns_r_range", sql`${t.judgmentsPerPassage} between 1 and 9`),
    check("campaigns_t_range", sql`${t.endorsementThreshold} between 1 and ${t.judgmentsPerPassage}`),
    check("campaigns_gold_threshold_range", sql`${t.goldAccuracyThreshold} between 0 and 1`),
    check("campaigns_gold_min_positive", sql`${t.goldMinJudgments} >= 0`),
    check("campaigns_lease_range", sql`${t.leaseSeconds} between 30 and 86400`),
    check("campaigns_session_goal_positive", sql`${t.sessionGoal} is null or ${t.sessionGoal} between 1 and 100000`),
    check("campaigns_decoys_range", sql`${t.decoysPer100} between 0 and 50`),
    check("campaigns_gold_span_slack_range", sql`${t.goldSpanSlack} between 0 and 10`),
    check("campaigns_aggregation", sql`${t.aggregation} in ('majority', 'dawid-skene')`),
    check(
      "campaigns_warn_ranges",
      sql`${t.warnFastShare} between 0 and 1 and ${t.warnMinAgreement} between 0 and 1 and ${t.warnMinJudgments} >= 1`,
    ),
  ],
);

export const campaignMembers = pgTable(
  "campaign_members",
  {
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    userId: cascadeRef("user_id", () => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.userId] }), index("campaign_members_user_idx").on(t.userId)],
);

export const batches = pgTable(
  "batches",
  {
    id: id(),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    name: text("name").notNull(),
    status: batchStatus("status").notNull().default("draft"),
    createdBy: ref("created_by").references(() => users.id),
    createdAt: createdAt(),
    launchedAt: timestamp("launched_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** R and T when the batch was closed: its export reads these, so a later change of the campaign's settings leaves it as it was. */
    sealedJudgmentsPerPassage: smallint("sealed_judgments_per_passage"),
    sealedEndorsementThreshold: smallint("sealed_endorsement_threshold"),
    /** Sizes counted at import (a batch never changes afterwards), so listing batches scans nothing. */
    queryCount: integer("query_count").notNull().default(0),
    passageCount: integer("passage_count").notNull().default(0),
    goldPassageCount: integer("gold_passage_count").notNull().default(0),
    pageCount: integer("page_count").notNull().default(0),
    /** The KILT task its lines are (lib/kilt/task-kind.ts): detected at import, or as the coordinator chose. */
    taskKind: text("task_kind").$type<TaskKind>().notNull().default("qa"),
    /** The KILT dataset the file name or the lines' meta named (fever, trex, …), if any: it picks the leaderboard's headline metric. */
    dataset: text("dataset"),
    /** Why the import took that kind, as its report said it. */
    taskKindReason: text("task_kind_reason").notNull().default(""),
    /** Whether annotators may answer "part of the evidence" on single passages (on by default for multi-hop datasets such as HotpotQA). */
    partialEvidence: boolean("partial_evidence").notNull().default(false),
  },
  (t) => [
    index("batches_campaign_idx").on(t.campaignId),
    check("batches_task_kind_known", sql`${t.taskKind} in ('qa', 'fact-checking', 'slot-filling', 'entity-linking', 'dialogue')`),
  ],
);

// ── Knowledge source, queries, passages ─────────────────────────────────────

/** PostgreSQL's tsvector (full-text search), written and read in SQL only. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const pages = pgTable(
  "pages",
  {
    wikipediaId: text("wikipedia_id").primaryKey(),
    title: text("title").notNull(),
    /** KILT `text` verbatim: [0] is the title, every element ends in "\n". */
    paragraphs: text("paragraphs").array().notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the page's paragraphs went into the text index (null: not yet, or changed since: updated_at > indexed_at). */
    indexedAt: timestamp("indexed_at", { withTimezone: true }),
  },
  (t) => [
    // Title search: a prefix of kps_fold(title) (lower case, accents folded; db/sql/search.sql).
    index("pages_title_folded_idx").using("btree", sql`kps_fold(${t.title}) text_pattern_ops`),
    index("pages_unindexed_idx")
      .on(t.wikipediaId)
      .where(sql`${t.indexedAt} is null or ${t.indexedAt} < ${t.updatedAt}`),
  ],
);

/** The text index of the knowledge source: one row per content paragraph (built by `kps knowledge index`, lib/knowledge/). */
export const paragraphIndex = pgTable(
  "paragraph_index",
  {
    wikipediaId: text("wikipedia_id")
      .notNull()
      .references(() => pages.wikipediaId, { onDelete: "cascade" }),
    paragraphId: integer("paragraph_id").notNull(),
    /** The section the paragraph is in ("" before the first Section:::: header). */
    section: text("section").notNull(),
    /** Title (weight A) and paragraph text, accents folded, English configuration. */
    document: tsvector("document").notNull(),
  },
  (t) => [primaryKey({ columns: [t.wikipediaId, t.paragraphId] }), index("paragraph_index_document_idx").using("gin", t.document)],
);

export const queries = pgTable(
  "queries",
  {
    id: id(),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    batchId: cascadeRef("batch_id", () => batches.id),
    /** The KILT id, always a string, byte-for-byte as imported. */
    kiltId: text("kilt_id").notNull(),
    input: text("input").notNull(),
    answers: text("answers")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The original task line, verbatim, for export. */
    originalLine: text("original_line").notNull(),
    /** Line number in the imported file, for error messages and audits. */
    lineNumber: integer("line_number").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("queries_campaign_kilt_id_key").on(t.campaignId, t.kiltId), index("queries_batch_idx").on(t.batchId)],
);

/**
 * One member of a complementary evidence set (a passage row judged as one unit): a paragraph range of
 * a page and, for gold, the span it expects there. Member 0 is also the passage row's own location.
 */
export interface SetMember {
  wikipediaId: string;
  startParagraphId: number;
  endParagraphId: number;
  /** Gold only, optional: the expected span in this member (code points, end exclusive). */
  expectedSpan?: { startParagraphId: number; startCharacter: number; endParagraphId: number; endCharacter: number } | null;
}

/** A highlight in one member of a set, as a judgment stores it (code points, end exclusive). */
export interface MemberSpan {
  startParagraphId: number;
  startCharacter: number;
  endParagraphId: number;
  endCharacter: number;
  text: string;
}

export type PassageOrigin =
  | { kind: "gold" }
  | { kind: "retriever"; retriever: string; rank: number }
  /** Proposed by an annotator who found none of the question's passages sufficient (their pseudonym). */
  | { kind: "annotator"; annotator: string }
  /** An automatic decoy: a paragraph of a candidate's page with none of the answer tokens (negative gold, never exported). */
  | { kind: "decoy" }
  /** An evidence set built from two passages of the question that T annotators marked "part of the evidence" (issue 31). */
  | { kind: "partial" }
  /** An evidence set made at import from two of the question's top candidate pages (the import's `sets: "pairs"`). */
  | { kind: "pair" };

export const passages = pgTable(
  "passages",
  {
    id: id(),
    queryId: cascadeRef("query_id", () => queries.id),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    batchId: cascadeRef("batch_id", () => batches.id),
    wikipediaId: text("wikipedia_id")
      .notNull()
      .references(() => pages.wikipediaId),
    startParagraphId: integer("start_paragraph_id").notNull(),
    endParagraphId: integer("end_paragraph_id").notNull(),
    origins: jsonb("origins").$type<PassageOrigin[]>().notNull(),
    isGold: boolean("is_gold").notNull().default(false),
    /** Gold only: the verdict a careful annotator gives. */
    expectedVerdict: verdict("expected_verdict"),
    /** Gold only, optional: the expected span (code points, end exclusive). */
    expectedStartParagraphId: integer("expected_start_paragraph_id"),
    expectedStartCharacter: integer("expected_start_character"),
    expectedEndParagraphId: integer("expected_end_paragraph_id"),
    expectedEndCharacter: integer("expected_end_character"),
    /** Gold only: a training item of crowd onboarding (shown with feedback; still hidden gold for everyone else). */
    isTraining: boolean("is_training").notNull().default(false),
    /** Gold only, optional: why the expected verdict and span are right, shown after a training answer. */
    explanation: text("explanation"),
    /** Gold only: an automatic decoy (expected insufficient, made at import, never exported). */
    isDecoy: boolean("is_decoy").notNull().default(false),
    /**
     * A complementary evidence set (issue 31): every member in page order, member 0 being this row's
     * own location; null for a single passage. Judged as one unit (one slot per judgment).
     */
    setMembers: jsonb("set_members").$type<SetMember[]>(),
    /** The members after the first as a key (`wid:start-end|…`), so one set is one row; '' for a single passage. */
    setKey: text("set_key").notNull().default(""),
    /** Counted judgments (by annotators in good standing). */
    judgmentCount: smallint("judgment_count").notNull().default(0),
    /** Counted judgments whose verdict is sufficient. */
    sufficientCount: smallint("sufficient_count").notNull().default(0),
    /** Live claims. */
    claimCount: smallint("claim_count").notNull().default(0),
    /** Slots still open: R − judgments − live claims, or 0 once decided (early stop). */
    openSlots: smallint("open_slots").notNull(),
    /** Early stop: the outcome can no longer change, so the passage takes no more claims. */
    isDecided: boolean("is_decided").notNull().default(false),
    /** The counters above as they were when the batch closed (null while it is open): the export of a closed batch reads these. */
    sealedJudgmentCount: smallint("sealed_judgment_count"),
    sealedSufficientCount: smallint("sealed_sufficient_count"),
    sealedIsDecided: boolean("sealed_is_decided"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("passages_location_key").on(t.queryId, t.wikipediaId, t.startParagraphId, t.endParagraphId, t.setKey),
    index("passages_query_idx").on(t.queryId),
    // The open-passage lookup of assignment walks this in order (closest to completion first):
    // only rows with a free slot are indexed, so its cost does not grow with finished work.
    index("passages_open_idx")
      .on(t.campaignId, t.openSlots, t.queryId, t.id)
      .where(sql`${t.openSlots} > 0`),
    index("passages_batch_idx").on(t.batchId),
    check("passages_paragraph_range", sql`0 <= ${t.startParagraphId} and ${t.startParagraphId} <= ${t.endParagraphId}`),
    check("passages_counts_nonnegative", sql`${t.judgmentCount} >= 0 and ${t.claimCount} >= 0 and ${t.openSlots} >= 0`),
    check("passages_gold_verdict", sql`(${t.isGold}) = (${t.expectedVerdict} is not null)`),
    check("passages_decoy_gold", sql`not ${t.isDecoy} or (${t.isGold} and ${t.expectedVerdict} = 'insufficient')`),
    check(
      "passages_set_members",
      sql`(${t.setMembers} is null) = (${t.setKey} = '') and (${t.setMembers} is null or jsonb_array_length(${t.setMembers}) between 2 and 8)`,
    ),
    check("passages_training_gold", sql`(not ${t.isTraining} and ${t.explanation} is null) or ${t.isGold}`),
    index("passages_training_idx")
      .on(t.campaignId, t.id)
      .where(sql`${t.isTraining}`),
  ],
);

// ── Annotation ───────────────────────────────────────────────────────────────

/** Why an annotator found no passage sufficient and proposed none (KILT's campaign asked for one or the other). */
export const EXPLANATION_REASONS = ["not_in_wikipedia", "ambiguous", "false_premise", "other"] as const;
export type ExplanationReason = (typeof EXPLANATION_REASONS)[number];

/**
 * A passage an annotator proposed for a question none of whose passages they found sufficient: the
 * passage itself is a row of `passages` (origin `annotator`, merged by location), judged by R other
 * annotators; this row keeps who proposed it and the span they highlighted.
 */
export const proposals = pgTable(
  "proposals",
  {
    id: id(),
    passageId: cascadeRef("passage_id", () => passages.id),
    queryId: cascadeRef("query_id", () => queries.id),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    userId: cascadeRef("user_id", () => users.id),
    startParagraphId: integer("start_paragraph_id").notNull(),
    startCharacter: integer("start_character").notNull(),
    endParagraphId: integer("end_paragraph_id").notNull(),
    endCharacter: integer("end_character").notNull(),
    spanText: text("span_text").notNull(),
    /** A proposal of a set (two passages): the proposer's highlight in each member, in member order (the span columns hold member 0's). */
    memberSpans: jsonb("member_spans").$type<MemberSpan[]>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("proposals_passage_user_key").on(t.passageId, t.userId),
    index("proposals_query_user_idx").on(t.queryId, t.userId),
    index("proposals_campaign_idx").on(t.campaignId, t.id),
  ],
);

/** An annotator's explanation of why no passage answers a question (instead of proposing one). */
export const explanations = pgTable(
  "explanations",
  {
    id: id(),
    queryId: cascadeRef("query_id", () => queries.id),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    userId: cascadeRef("user_id", () => users.id),
    reason: text("reason").$type<ExplanationReason>().notNull(),
    text: text("text").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("explanations_query_user_key").on(t.queryId, t.userId),
    index("explanations_campaign_idx").on(t.campaignId, t.queryId),
    check("explanations_reason", sql`${t.reason} in ('not_in_wikipedia', 'ambiguous', 'false_premise', 'other')`),
    check("explanations_text_length", sql`char_length(${t.text}) <= 2000`),
  ],
);

export const claims = pgTable(
  "claims",
  {
    id: id(),
    /** What the annotator's browser knows the claim by: 128 random bits (base64url), never a database id. */
    handle: text("handle").notNull(),
    passageId: cascadeRef("passage_id", () => passages.id),
    userId: cascadeRef("user_id", () => users.id),
    /** The passage's campaign, copied for the claim's indexes; its passage takes it with it (hotRef). */
    campaignId: hotRef("campaign_id"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set when the claim ends: judged, released, or reclaimed after expiry. */
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    // One annotator never holds two claims on one passage.
    uniqueIndex("claims_passage_user_key").on(t.passageId, t.userId),
    uniqueIndex("claims_handle_key").on(t.handle),
    index("claims_live_idx")
      .on(t.expiresAt)
      .where(sql`${t.endedAt} is null`),
    index("claims_user_live_idx")
      .on(t.userId, t.campaignId)
      .where(sql`${t.endedAt} is null`),
    index("claims_user_campaign_idx").on(t.userId, t.campaignId, t.id),
  ],
);

export const judgments = pgTable(
  "judgments",
  {
    id: id(),
    passageId: cascadeRef("passage_id", () => passages.id),
    userId: cascadeRef("user_id", () => users.id),
    claimId: ref("claim_id").references(() => claims.id, { onDelete: "set null" }),
    /** The passage's campaign and batch, copied for the judgment's indexes; its passage takes it with it (hotRef). */
    campaignId: hotRef("campaign_id"),
    batchId: hotRef("batch_id"),
    verdict: verdict("verdict").notNull(),
    /** Fact checking: the label a sufficient verdict gives the claim (SUPPORTS or REFUTES); null for other kinds and insufficient verdicts. */
    label: text("label").$type<FactLabel>(),
    unreadable: boolean("unreadable").notNull().default(false),
    startParagraphId: integer("start_paragraph_id"),
    startCharacter: integer("start_character"),
    endParagraphId: integer("end_paragraph_id"),
    endCharacter: integer("end_character"),
    spanText: text("span_text"),
    /** Entity linking: a sufficient verdict on the page itself, with no highlight (its span columns are null). */
    pageLevel: boolean("page_level").notNull().default(false),
    /** "Part of the evidence": stored as insufficient (it does not endorse the passage alone) with the highlight of the part. */
    partial: boolean("partial").notNull().default(false),
    /** A set's sufficient verdict: one highlight per member, in member order; member 0's is also in the span columns. Null otherwise. */
    memberSpans: jsonb("member_spans").$type<MemberSpan[]>(),
    /** Time the server measured: from handing out the task (or the annotator's previous judgment, if later) to receiving this one. */
    durationMs: integer("duration_ms").notNull(),
    /** The time the client said it took: a hint only, never used by a rule. */
    clientDurationMs: integer("client_duration_ms"),
    /**
     * Whether the verdict matches the passage's outcome (endorsed ⇒ sufficient), set by the
     * passage trigger once the passage is finished; null while it is not. Feeds "agreement with
     * the majority" in the annotator tallies.
     */
    agrees: boolean("agrees"),
    /** Whether the judgment counted when its batch closed (null while the batch is open): a later pause of its annotator leaves the closed batch's export as it was. */
    countedAtClose: boolean("counted_at_close"),
    idempotencyKey: text("idempotency_key").notNull(),
    /** Hash of the submitted body: a replay with another body is a conflict. */
    requestHash: text("request_hash").notNull(),
    /** The annotator's note to the coordinators, if any. */
    comment: text("comment"),
    /** What the annotator flagged (JUDGMENT_FLAGS). */
    flags: text("flags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** How many times the annotator revised it (undo or history); earlier versions are in judgment_versions. */
    revision: integer("revision").notNull().default(0),
    /** When the current version was submitted, if it is a revision (created_at stays the first submission). */
    revisedAt: timestamp("revised_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // Never two judgments by one annotator on one passage.
    uniqueIndex("judgments_passage_user_key").on(t.passageId, t.userId),
    uniqueIndex("judgments_user_idempotency_key").on(t.userId, t.idempotencyKey),
    index("judgments_campaign_idx").on(t.campaignId, t.createdAt),
    index("judgments_user_idx").on(t.userId, t.campaignId, t.createdAt),
    check(
      "judgments_span_iff_sufficient",
      sql`((${t.verdict} = 'sufficient' and not ${t.pageLevel}) or ${t.partial}) = (${t.spanText} is not null
        and ${t.startParagraphId} is not null and ${t.startCharacter} is not null
        and ${t.endParagraphId} is not null and ${t.endCharacter} is not null)`,
    ),
    check("judgments_page_level_sufficient", sql`not ${t.pageLevel} or ${t.verdict} = 'sufficient'`),
    check("judgments_partial_insufficient", sql`not ${t.partial} or (${t.verdict} = 'insufficient' and not ${t.unreadable})`),
    check(
      "judgments_member_spans_sufficient",
      sql`${t.memberSpans} is null or (${t.verdict} = 'sufficient' and jsonb_array_length(${t.memberSpans}) >= 2)`,
    ),
    check("judgments_unreadable_insufficient", sql`not ${t.unreadable} or ${t.verdict} = 'insufficient'`),
    check("judgments_label_sufficient", sql`${t.label} is null or (${t.verdict} = 'sufficient' and ${t.label} in ('SUPPORTS', 'REFUTES'))`),
    check("judgments_duration_nonnegative", sql`${t.durationMs} >= 0`),
    check("judgments_flags_known", sql`${t.flags} <@ array['broken_text', 'offensive', 'question_wrong']::text[]`),
    check("judgments_comment_length", sql`${t.comment} is null or char_length(${t.comment}) between 1 and 2000`),
    // The dashboard's count of commented or flagged judgments reads only these.
    index("judgments_noted_idx")
      .on(t.campaignId, t.createdAt)
      .where(sql`${t.comment} is not null or ${t.flags} <> '{}'::text[]`),
  ],
);

/** Earlier versions of a revised judgment, each as it stood until replaced (the judgments export lists them). */
export const judgmentVersions = pgTable(
  "judgment_versions",
  {
    id: id(),
    judgmentId: cascadeRef("judgment_id", () => judgments.id),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    /** 0 for the first submission, then 1, 2, … (the judgment's `revision` is the current one). */
    revision: integer("revision").notNull(),
    verdict: verdict("verdict").notNull(),
    label: text("label").$type<FactLabel>(),
    unreadable: boolean("unreadable").notNull(),
    startParagraphId: integer("start_paragraph_id"),
    startCharacter: integer("start_character"),
    endParagraphId: integer("end_paragraph_id"),
    endCharacter: integer("end_character"),
    spanText: text("span_text"),
    pageLevel: boolean("page_level").notNull().default(false),
    partial: boolean("partial").notNull().default(false),
    memberSpans: jsonb("member_spans").$type<MemberSpan[]>(),
    comment: text("comment"),
    flags: text("flags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    durationMs: integer("duration_ms").notNull(),
    clientDurationMs: integer("client_duration_ms"),
    /** When this version was submitted, and when the next one replaced it. */
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull(),
    replacedAt: timestamp("replaced_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("judgment_versions_judgment_revision_key").on(t.judgmentId, t.revision),
    index("judgment_versions_campaign_idx").on(t.campaignId),
  ],
);

export const annotatorStandings = pgTable(
  "annotator_standings",
  {
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    userId: cascadeRef("user_id", () => users.id),
    status: standingStatus("status").notNull().default("active"),
    pauseReason: pauseReason("pause_reason"),
    pausedAt: timestamp("paused_at", { withTimezone: true }),
    pausedBy: ref("paused_by").references(() => users.id),
    /** Every gold judgment (sufficient and insufficient gold, decoys included) and the right ones. */
    goldJudged: integer("gold_judged").notNull().default(0),
    goldCorrect: integer("gold_correct").notNull().default(0),
    /** Of those, the ones on negative gold (expected insufficient: imported or decoys). */
    negativeGoldJudged: integer("negative_gold_judged").notNull().default(0),
    negativeGoldCorrect: integer("negative_gold_correct").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.userId] }),
    check("annotator_standings_pause_reason", sql`(${t.status} = 'paused') = (${t.pauseReason} is not null)`),
  ],
);

export const ADJUDICATION_DECISIONS = ["endorse", "reject"] as const;
export type AdjudicationDecision = (typeof ADJUDICATION_DECISIONS)[number];

/**
 * A coordinator's final word on a passage (as INCEpTION's curation): endorse (with a span) or
 * reject, with a reason. It overrides the vote in the export, the leaderboard and the question view
 * until reverted; every decision and revert is also in the audit log. At most one live per passage.
 */
export const adjudications = pgTable(
  "adjudications",
  {
    id: id(),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    passageId: cascadeRef("passage_id", () => passages.id),
    decision: text("decision").$type<AdjudicationDecision>().notNull(),
    /** Endorse only: the span exported (code points, end exclusive); null: the consensus span. */
    startParagraphId: integer("start_paragraph_id"),
    startCharacter: integer("start_character"),
    endParagraphId: integer("end_paragraph_id"),
    endCharacter: integer("end_character"),
    spanText: text("span_text"),
    reason: text("reason").notNull(),
    createdBy: ref("created_by").references(() => users.id, { onDelete: "set null" }),
    /** The coordinator's username at the time (exported as meta.adjudicated_by). */
    createdByUsername: text("created_by_username").notNull(),
    createdAt: createdAt(),
    revertedAt: timestamp("reverted_at", { withTimezone: true }),
    revertedBy: ref("reverted_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("adjudications_live_key")
      .on(t.passageId)
      .where(sql`${t.revertedAt} is null`),
    index("adjudications_campaign_idx").on(t.campaignId, t.passageId),
    check("adjudications_decision", sql`${t.decision} in ('endorse', 'reject')`),
    check("adjudications_reason_length", sql`char_length(${t.reason}) between 1 and 2000`),
    check(
      "adjudications_span_endorse",
      sql`(${t.spanText} is null or ${t.decision} = 'endorse') and ((${t.spanText} is null) = (${t.startParagraphId} is null))`,
    ),
  ],
);

// ── Dashboard tallies ────────────────────────────────────────────────────────
// Kept by triggers (db/sql/tallies.sql), so every path that changes passages
// or adds judgments keeps them right. Hot counters are append-only deltas that readers fold in
// (lib/campaign/tallies.ts), so concurrent annotators never wait on one counter row.
// No foreign keys: triggers write them while cascades delete their owners.

const tallyPassageColumns = () => ({
  campaignId: ref("campaign_id").notNull(),
  batchId: ref("batch_id").notNull(),
  judgmentCount: smallint("judgment_count").notNull(),
  sufficientCount: smallint("sufficient_count").notNull(),
  passages: bigint("passages", { mode: "number" }).notNull(),
  claimed: bigint("claimed", { mode: "number" }).notNull(),
  open: bigint("open", { mode: "number" }).notNull(),
  decided: bigint("decided", { mode: "number" }).notNull(),
});

/** Per batch: how many passages have each (counted judgments, sufficient) pair, with their claims and open slots. */
export const passageTallies = pgTable("passage_tallies", tallyPassageColumns(), (t) => [
  primaryKey({ columns: [t.batchId, t.judgmentCount, t.sufficientCount] }),
  index("passage_tallies_campaign_idx").on(t.campaignId),
]);
export const passageTallyDeltas = pgTable("passage_tally_deltas", tallyPassageColumns());

const tallyAnnotatorColumns = () => ({
  campaignId: ref("campaign_id").notNull(),
  userId: ref("user_id").notNull(),
  /** least(duration_ms / 500, 240): half-second buckets, the last one holding 120 s and more. */
  durationBucket: smallint("duration_bucket").notNull(),
  judgments: integer("judgments").notNull(),
  /** Judgments on finished passages (compared with the outcome) and those agreeing with it. */
  compared: integer("compared").notNull(),
  agreed: integer("agreed").notNull(),
});

/** Per annotator and duration bucket: judgments and agreement with the majority. */
export const annotatorTallies = pgTable("annotator_tallies", tallyAnnotatorColumns(), (t) => [
  primaryKey({ columns: [t.campaignId, t.userId, t.durationBucket] }),
]);
export const annotatorTallyDeltas = pgTable("annotator_tally_deltas", tallyAnnotatorColumns());

/**
 * Per annotator, campaign and UTC day: the judgments they made (kps_judgments_inserted, db/sql/tallies.sql).
 * The judging page's "today" reads one row here, not every judgment of the day: that count grew
 * with the annotator's day, on every task handed out. Only the annotator's own judgments write
 * their row, so no two annotators wait on one.
 */
export const annotatorDays = pgTable(
  "annotator_days",
  {
    userId: ref("user_id").notNull(),
    campaignId: ref("campaign_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    judgments: integer("judgments").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.campaignId, t.day] })],
);

const tallyMinuteColumns = () => ({
  campaignId: ref("campaign_id").notNull(),
  batchId: ref("batch_id").notNull(),
  minute: timestamp("minute", { withTimezone: true }).notNull(),
  judgments: integer("judgments").notNull(),
});

/** Judgments per batch and minute, for the activity chart and the projected finish. */
export const judgmentMinutes = pgTable("judgment_minutes", tallyMinuteColumns(), (t) => [
  primaryKey({ columns: [t.batchId, t.minute] }),
  index("judgment_minutes_campaign_idx").on(t.campaignId, t.minute),
]);
export const judgmentMinuteDeltas = pgTable("judgment_minute_deltas", tallyMinuteColumns());

/**
 * Judgments per batch and hour: the same figures as `judgment_minutes`, folded from the same deltas
 * (kps_compact_tallies, db/sql/tallies.sql), so a chart with bins of an hour or more reads 60× fewer rows.
 */
export const judgmentHours = pgTable(
  "judgment_hours",
  {
    campaignId: ref("campaign_id").notNull(),
    batchId: ref("batch_id").notNull(),
    hour: timestamp("hour", { withTimezone: true }).notNull(),
    judgments: integer("judgments").notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.hour] }), index("judgment_hours_campaign_idx").on(t.campaignId, t.hour)],
);

/**
 * Per question: passages, finished ones (decided or R counted judgments), endorsed ones, disputed
 * ones (both verdicts among the counted) and missed gold ones (a gold passage expected sufficient,
 * finished, not endorsed: the question is unanswerable from the snapshot, DESIGN.md). Changes only
 * when a passage's state flips.
 */
export const queryTallies = pgTable(
  "query_tallies",
  {
    queryId: ref("query_id")
      .primaryKey()
      .references(() => queries.id, { onDelete: "cascade" }),
    campaignId: ref("campaign_id").notNull(),
    batchId: ref("batch_id").notNull(),
    passages: integer("passages").notNull(),
    finished: integer("finished").notNull(),
    endorsed: integer("endorsed").notNull(),
    disputed: integer("disputed").notNull(),
    /** Gold passages expected sufficient, finished and not endorsed: the question is unanswerable from the snapshot. */
    goldMissed: integer("gold_missed").notNull(),
  },
  (t) => [
    index("query_tallies_unanswerable_idx")
      .on(t.campaignId)
      .where(sql`${t.goldMissed} > 0`),
    index("query_tallies_answered_idx")
      .on(t.campaignId)
      .where(sql`${t.endorsed} > 0`),
    index("query_tallies_disputed_idx")
      .on(t.campaignId, t.disputed, t.queryId)
      .where(sql`${t.disputed} > 0`),
  ],
);

// ── Crowd campaigns ──────────────────────────────────────────────────────────

export const CROWD_PLATFORMS = ["prolific", "mturk", "generic"] as const;
export type CrowdPlatform = (typeof CROWD_PLATFORMS)[number];
/** How a crowd session ends; each outcome has its own completion code. */
export const CROWD_OUTCOMES = ["completed", "queue_empty", "paused", "timed_out", "training_failed", "stopped"] as const;
export type CrowdOutcome = (typeof CROWD_OUTCOMES)[number];
export const CROWD_STAGES = ["consent", "training", "working", "ended"] as const;
export type CrowdStage = (typeof CROWD_STAGES)[number];

/** A campaign's crowd entry: off by default; when on, workers arrive at /crowd/{entry_key} from the platform. */
export const crowdEntries = pgTable(
  "crowd_entries",
  {
    campaignId: ref("campaign_id")
      .primaryKey()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    /** Open to newcomers. Closed (false): sessions in progress finish; nobody new enters. */
    enabled: boolean("enabled").notNull().default(false),
    /** Stopped: closed, and sessions in progress end now (outcome `stopped`). Never with `enabled`. */
    stopped: boolean("stopped").notNull().default(false),
    /** The platform's number of places: at most this many workers (accounts) in the campaign. */
    maxWorkers: integer("max_workers").notNull().default(200),
    /** At most this many sessions in progress (not ended) at once; an entry past it makes no account. */
    maxSessionsInProgress: integer("max_sessions_in_progress").notNull().default(50),
    /** MTurk only: where an assignment is submitted — production (www.mturk.com) or the sandbox — never the request's turkSubmitTo. */
    mturkSite: text("mturk_site").$type<"production" | "sandbox">().notNull().default("production"),
    /** Markdown shown as the example on the public entry page (never a gold passage); empty: the instructions alone. */
    example: text("example").notNull().default(""),
    platform: text("platform").$type<CrowdPlatform>().notNull().default("prolific"),
    /** 128 random bits (base64url): the entry URL's secret part, so campaigns cannot be enumerated. */
    entryKey: text("entry_key").notNull(),
    /** Markdown shown before any work; the worker agrees to it. */
    consent: text("consent").notNull().default(""),
    /** K: training items per worker (0: none). */
    trainingItems: smallint("training_items").notNull().default(5),
    /** Share of training answers that must be right to enter real work. */
    trainingPassShare: real("training_pass_share").notNull().default(0.8),
    /** A session is this many passages, or this many questions' passages. */
    quota: integer("quota").notNull().default(20),
    quotaUnit: text("quota_unit").$type<"passages" | "questions">().notNull().default("passages"),
    timeLimitMinutes: integer("time_limit_minutes").notNull().default(60),
    maxSessionsPerWorker: integer("max_sessions_per_worker").notNull().default(1),
    /** Null: no limit. */
    maxJudgmentsPerWorker: integer("max_judgments_per_worker"),
    /** Pause a worker whose median time per judgment is under 2 s (after warnMinJudgments judgments). */
    pauseFastWorkers: boolean("pause_fast_workers").notNull().default(false),
    /** Prolific's completion URL; the code is appended as ?cc=CODE. */
    completionUrl: text("completion_url").notNull().default("https://app.prolific.com/submissions/complete"),
    /** One completion code per outcome (CROWD_OUTCOMES → code). */
    codes: jsonb("codes").$type<Record<CrowdOutcome, string>>().notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("crowd_entries_entry_key_key").on(t.entryKey),
    check("crowd_entries_platform", sql`${t.platform} in ('prolific', 'mturk', 'generic')`),
    check("crowd_entries_quota_unit", sql`${t.quotaUnit} in ('passages', 'questions')`),
    check("crowd_entries_mturk_site", sql`${t.mturkSite} in ('production', 'sandbox')`),
    check("crowd_entries_stopped_closed", sql`not (${t.enabled} and ${t.stopped})`),
    check("crowd_entries_caps", sql`${t.maxWorkers} between 1 and 1000000 and ${t.maxSessionsInProgress} between 1 and 100000`),
    check(
      "crowd_entries_ranges",
      sql`${t.trainingItems} between 0 and 50 and ${t.trainingPassShare} between 0 and 1 and ${t.quota} between 1 and 10000
        and ${t.timeLimitMinutes} between 1 and 1440 and ${t.maxSessionsPerWorker} between 1 and 1000
        and (${t.maxJudgmentsPerWorker} is null or ${t.maxJudgmentsPerWorker} >= 1)`,
    ),
  ],
);

/** A platform worker id, mapped to one pseudonymous crowd account of one campaign. */
export const crowdWorkers = pgTable(
  "crowd_workers",
  {
    id: id(),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    platform: text("platform").$type<CrowdPlatform>().notNull(),
    /** PROLIFIC_PID, MTurk's workerId, or ?worker=: for the payment report only. */
    platformWorkerId: text("platform_worker_id").notNull(),
    userId: cascadeRef("user_id", () => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("crowd_workers_platform_key").on(t.campaignId, t.platform, t.platformWorkerId),
    uniqueIndex("crowd_workers_user_key").on(t.userId),
  ],
);

/** Entries through a crowd link (made or refused), for rate limiting per campaign and per address. Old rows are pruned. */
export const crowdEntryAttempts = pgTable(
  "crowd_entry_attempts",
  {
    id: id(),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    address: text("address").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("crowd_entry_attempts_campaign_idx").on(t.campaignId, t.createdAt),
    index("crowd_entry_attempts_address_idx").on(t.address, t.createdAt),
  ],
);

/** One crowd worker's stretch of work: consent → training → working → ended, with an outcome and its code. */
export const crowdSessions = pgTable(
  "crowd_sessions",
  {
    id: id(),
    workerId: cascadeRef("worker_id", () => crowdWorkers.id),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    userId: cascadeRef("user_id", () => users.id),
    /** 1 for the worker's first session, then 2, … */
    number: integer("number").notNull(),
    /** Prolific STUDY_ID / MTurk hitId. */
    studyId: text("study_id"),
    /** Prolific SESSION_ID / MTurk assignmentId. */
    platformSessionId: text("platform_session_id"),
    /** MTurk only: where the assignment is submitted (an allowed MTurk origin). */
    turkSubmitTo: text("turk_submit_to"),
    stage: text("stage").$type<CrowdStage>().notNull().default("consent"),
    outcome: text("outcome").$type<CrowdOutcome>(),
    code: text("code"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    /** When real work began (training passed): the session's judgments are the worker's from then to its end. */
    workStartedAt: timestamp("work_started_at", { withTimezone: true }),
    deadlineAt: timestamp("deadline_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    trainingJudged: integer("training_judged").notNull().default(0),
    trainingCorrect: integer("training_correct").notNull().default(0),
  },
  (t) => [
    uniqueIndex("crowd_sessions_worker_number_key").on(t.workerId, t.number),
    // At most one open session per worker.
    uniqueIndex("crowd_sessions_open_key")
      .on(t.workerId)
      .where(sql`${t.stage} <> 'ended'`),
    index("crowd_sessions_campaign_idx").on(t.campaignId, t.id),
    // Sessions in progress: counted against maxSessionsInProgress, and ended by the reaper past their deadline.
    index("crowd_sessions_in_progress_idx")
      .on(t.campaignId, t.deadlineAt)
      .where(sql`${t.stage} <> 'ended'`),
    check("crowd_sessions_stage", sql`${t.stage} in ('consent', 'training', 'working', 'ended')`),
    check(
      "crowd_sessions_outcome",
      sql`(${t.stage} = 'ended') = (${t.outcome} is not null and ${t.code} is not null and ${t.endedAt} is not null)`,
    ),
  ],
);

/** A training answer: shown with feedback, never a judgment (never counts towards consensus). */
export const trainingAnswers = pgTable(
  "training_answers",
  {
    id: id(),
    sessionId: cascadeRef("session_id", () => crowdSessions.id),
    passageId: cascadeRef("passage_id", () => passages.id),
    userId: cascadeRef("user_id", () => users.id),
    position: smallint("position").notNull(),
    verdict: verdict("verdict").notNull(),
    startParagraphId: integer("start_paragraph_id"),
    startCharacter: integer("start_character"),
    endParagraphId: integer("end_paragraph_id"),
    endCharacter: integer("end_character"),
    spanText: text("span_text"),
    /** Fact checking: the label a sufficient training answer gave (SUPPORTS or REFUTES); null otherwise. */
    label: text("label").$type<FactLabel>(),
    correct: boolean("correct").notNull(),
    durationMs: integer("duration_ms").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("training_answers_session_position_key").on(t.sessionId, t.position),
    uniqueIndex("training_answers_user_passage_key").on(t.userId, t.passageId),
    check("training_answers_label_known", sql`${t.label} is null or ${t.label} in ('SUPPORTS', 'REFUTES')`),
  ],
);

/** Small key/value facts about this installation (e.g. whether the demo was seeded). */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  createdAt: createdAt(),
});

// ── Runs: systems' predictions scored against the campaign ─────────────────

/** A provenance item of a prediction as KILT's evaluator reads it (lib/kilt/score: `ProvItem`): each rank key as str(v).strip(). */
export interface RunProvenanceItem {
  wikipedia_id: string | null;
  start_paragraph_id: string | null;
  end_paragraph_id: string | null;
  title: string | null;
  text: string | null;
}

/** A system's predictions for every question of a campaign (a KILT guess file), scored at every read (lib/campaign/runs/). */
export const runs = pgTable(
  "runs",
  {
    id: id(),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    name: text("name").notNull(),
    createdBy: ref("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /** Predictions stored: one per question of the campaign at upload. */
    questions: integer("questions").notNull(),
    /** Every line had `provenance` (retrieval is scored) / `answer` (downstream is scored). */
    hasProvenance: boolean("has_provenance").notNull(),
    hasAnswers: boolean("has_answers").notNull(),
  },
  (t) => [
    uniqueIndex("runs_campaign_name_key").on(t.campaignId, t.name),
    check("runs_name_length", sql`char_length(${t.name}) between 1 and 80`),
  ],
);

/** One prediction of a run: the question's answer and ranked provenance, as parsed from the guess line. */
export const runPredictions = pgTable(
  "run_predictions",
  {
    runId: cascadeRef("run_id", () => runs.id),
    queryId: cascadeRef("query_id", () => queries.id),
    answer: text("answer"),
    provenance: jsonb("provenance").$type<RunProvenanceItem[]>(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.queryId] }), index("run_predictions_query_idx").on(t.queryId)],
);

// ── Leaderboard cache ────────────────────────────────────────────────────────

/**
 * The outcome version of a campaign: bumped (a row of `outcome_version_deltas` appended, in the
 * writing transaction) by triggers on every table the campaign's outcomes are read from
 * (db/sql/outcome-versions.sql); folded here now and then. Version = changes + the pending deltas'
 * sum: it only grows, and every commit that may change an outcome grows it. Insert-only deltas, so
 * the judging path never waits on a shared row. Kept per question too: `query_id` is the question a
 * change is confined to (a judgment, a passage, an adjudication, the question itself, a pause or
 * resume: each question the annotator judged; a batch written: each of its questions), 0 for a
 * change of the whole campaign (a setting, a page, a batch deleted), and the row of `query_id` -1
 * holds the campaign's total (the version).
 */
export const outcomeVersions = pgTable(
  "outcome_versions",
  {
    campaignId: ref("campaign_id").notNull(),
    queryId: ref("query_id").notNull().default(0),
    changes: bigint("changes", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.queryId] })],
);
export const outcomeVersionDeltas = pgTable(
  "outcome_version_deltas",
  { campaignId: ref("campaign_id").notNull(), queryId: ref("query_id").notNull().default(0), changes: integer("changes").notNull() },
  (t) => [index("outcome_version_deltas_campaign_idx").on(t.campaignId)],
);

/**
 * A run's figures against one gold for one leaderboard query (`levels`, `ks` as text, e.g.
 * "paragraph" and "1,5,10"), computed at outcome version `version` (lib/campaign/runs/score-cache.ts).
 * A reader uses an entry only when `version` is the campaign's current one.
 */
export const leaderboardScores = pgTable(
  "leaderboard_scores",
  {
    runId: cascadeRef("run_id", () => runs.id),
    gold: text("gold").notNull(),
    levels: text("levels").notNull(),
    ks: text("ks").notNull(),
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    version: bigint("version", { mode: "number" }).notNull(),
    /** JSON, not jsonb: the figures keep the key order KILT's evaluators write them in. */
    value: json("value").notNull(),
    computedAt: timestamp("computed_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.gold, t.levels, t.ks] }), index("leaderboard_scores_campaign_idx").on(t.campaignId)],
);

/**
 * The questions in each gold of a campaign at outcome version `version`, and what the per-question
 * golds below were read at: `wide`, the campaign-wide changes (query 0 above) then, how many
 * questions have been updated in place since the last full computation (`increments`), the T they
 * were read with (`t`: the per-question golds below of that T are the figures'), and R when golds at
 * the other Ts are kept (`r`; null under Dawid–Skene).
 */
export const leaderboardGolds = pgTable("leaderboard_golds", {
  campaignId: ref("campaign_id")
    .primaryKey()
    .references(() => campaigns.id, { onDelete: "cascade" }),
  version: bigint("version", { mode: "number" }).notNull(),
  wide: bigint("wide", { mode: "number" }).notNull().default(-1),
  increments: bigint("increments", { mode: "number" }).notNull().default(0),
  counts: json("counts").notNull(),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull(),
  r: integer("r"),
  t: integer("t"),
});

/**
 * A question's golds as the cached leaderboard figures hold them: its export status and endorsed
 * entries, the md5 of its original line, and its own outcome changes when read, at T = `t`. The
 * golds the figures hold are those at the golds row's T; under majority, those at every other T from
 * 1 to R are kept beside them at the same own changes, so that a change of T takes them
 * (lib/campaign/runs/golds-at-t.ts). A change confined to questions updates the figures by taking
 * these out and the new golds in. No foreign key to the question: a deleted question's old golds are
 * what must be taken out.
 */
export const leaderboardQuestionGolds = pgTable(
  "leaderboard_question_golds",
  {
    campaignId: cascadeRef("campaign_id", () => campaigns.id),
    t: integer("t").notNull(),
    queryId: ref("query_id").notNull(),
    changes: bigint("changes", { mode: "number" }).notNull(),
    originalMd5: text("original_md5").notNull(),
    status: text("status").notNull(),
    entries: json("entries").notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.t, t.queryId] })],
);

// ── Types ────────────────────────────────────────────────────────────────────

export type User = typeof users.$inferSelect;
export type UserRole = (typeof userRole.enumValues)[number];
export type Session = typeof sessions.$inferSelect;
export type ApiToken = typeof apiTokens.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
export type Invite = typeof invites.$inferSelect;
export type Campaign = typeof campaigns.$inferSelect;
export type NewCampaign = typeof campaigns.$inferInsert;
export type Batch = typeof batches.$inferSelect;
export type BatchStatus = (typeof batchStatus.enumValues)[number];
export type Page = typeof pages.$inferSelect;
export type Query = typeof queries.$inferSelect;
export type Passage = typeof passages.$inferSelect;
export type Claim = typeof claims.$inferSelect;
export type Judgment = typeof judgments.$inferSelect;
export type Verdict = (typeof verdict.enumValues)[number];
export type AnnotatorStanding = typeof annotatorStandings.$inferSelect;
export type CrowdEntry = typeof crowdEntries.$inferSelect;
export type CrowdWorker = typeof crowdWorkers.$inferSelect;
export type CrowdSession = typeof crowdSessions.$inferSelect;
export type Proposal = typeof proposals.$inferSelect;
export type Explanation = typeof explanations.$inferSelect;
export type Run = typeof runs.$inferSelect;
export type Adjudication = typeof adjudications.$inferSelect;
export type RunPrediction = typeof runPredictions.$inferSelect;
