// What the audit log records, named for people: the action and target kinds with their labels. A
// pure module, so the audit page, the API and the CLI share the lists.

/** What the audit log records; one name per coordinator action that changes something. */
export const AUDIT_ACTIONS = [
  "user.create",
  "user.disable",
  "user.enable",
  "user.password_set",
  "user.password_change",
  "user.reset_link",
  "invite.create",
  "token.create",
  "token.revoke",
  "campaign.create",
  "campaign.update",
  "campaign.members",
  "campaign.crowd",
  "batch.import",
  "batch.launch",
  "batch.pause",
  "batch.close",
  "standing.pause",
  "standing.resume",
  "knowledge.import",
  "knowledge.index",
  "run.upload",
  "run.delete",
  "passage.adjudicate",
  "passage.adjudication_revert",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** `knowledge`: the knowledge source (its id is the imported file's name, or null for the text index). */
export const AUDIT_TARGETS = ["user", "invite", "token", "campaign", "batch", "run", "passage", "knowledge"] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "user.create": "Created an account",
  "user.disable": "Disabled an account",
  "user.enable": "Enabled an account",
  "user.password_set": "Set a password",
  "user.password_change": "Changed their password",
  "user.reset_link": "Made a password reset link",
  "invite.create": "Made an invite link",
  "token.create": "Created an API token",
  "token.revoke": "Revoked an API token",
  "campaign.create": "Created a campaign",
  "campaign.update": "Changed a campaign's settings",
  "campaign.members": "Changed a campaign's members",
  "campaign.crowd": "Changed a campaign's crowd entry",
  "batch.import": "Imported a batch",
  "batch.launch": "Launched a batch",
  "batch.pause": "Paused a batch",
  "batch.close": "Closed a batch",
  "standing.pause": "Paused an annotator",
  "standing.resume": "Resumed an annotator",
  "knowledge.import": "Imported a knowledge source",
  "knowledge.index": "Built the text index",
  "run.upload": "Uploaded a run",
  "run.delete": "Deleted a run",
  "passage.adjudicate": "Adjudicated a passage",
  "passage.adjudication_revert": "Reverted an adjudication",
};

export const AUDIT_TARGET_LABELS: Record<AuditTarget, string> = {
  user: "Account",
  invite: "Invite link",
  token: "API token",
  campaign: "Campaign",
  batch: "Batch",
  run: "Run",
  passage: "Passage",
  knowledge: "Knowledge source",
};

/** An action's label; an action this version does not know (an older or newer one) as it is stored. */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;
}
