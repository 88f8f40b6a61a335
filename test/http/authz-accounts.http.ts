// The authorization matrix (test/http/authz/matrix.ts) on the accounts routes (app/api/routes/accounts.ts):
// each row as each kind of caller, and malformed JSON where the row takes a body.
import { authzMatrix } from "./authz/matrix";
import { SUBJECTS } from "./authz/subjects";

authzMatrix(SUBJECTS.accounts);
