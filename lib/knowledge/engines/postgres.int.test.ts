import { describeKnowledgeEngine } from "../engine-suite";
import { createPostgresEngine } from "./postgres";

// The shared engine suite on the PostgreSQL engine: "auto" (RUM where the server offers the
// extension, GIN on PGlite and elsewhere) and GIN forced on a server that has RUM.
describeKnowledgeEngine("postgres (auto)", () => createPostgresEngine());
describeKnowledgeEngine("postgres (gin)", () => createPostgresEngine({ method: "gin" }));
