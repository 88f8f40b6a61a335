-- Issue 16: the rest of KILT's campaign. A campaign asks an annotator who found no passage of a question sufficient for another passage
-- (proposals: the passage is a row of passages, origin 'annotator') or an explanation (explanations). The knowledge source gets a
-- title search (kps_fold: lower case, Latin accents folded, in SQL so PostgreSQL 15 and PGlite agree without the unaccent extension)
-- and a text index (paragraph_index, filled by `kps knowledge index`). Idempotent, like 0008.
CREATE OR REPLACE FUNCTION kps_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN lower(translate(value, 'àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšţťŧùúûüũūŭůűųŵýÿŷźżžÀÁÂÃÄÅĀĂĄÇĆĈĊČĎĐÈÉÊËĒĔĖĘĚĜĞĠĢĤĦÌÍÎÏĨĪĬĮİĴĶĹĻĽĿŁÑŃŅŇÒÓÔÕÖØŌŎŐŔŖŘŚŜŞŠŢŤŦÙÚÛÜŨŪŬŮŰŲŴÝŸŶŹŻŽ', 'aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzzaaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzz'));--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "explanations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "explanations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"query_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "explanations_reason" CHECK ("explanations"."reason" in ('not_in_wikipedia', 'ambiguous', 'false_premise', 'other')),
	CONSTRAINT "explanations_text_length" CHECK (char_length("explanations"."text") <= 2000)
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "paragraph_index" (
	"wikipedia_id" text NOT NULL,
	"paragraph_id" integer NOT NULL,
	"section" text NOT NULL,
	"document" "tsvector" NOT NULL,
	CONSTRAINT "paragraph_index_wikipedia_id_paragraph_id_pk" PRIMARY KEY("wikipedia_id","paragraph_id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "proposals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "proposals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"passage_id" bigint NOT NULL,
	"query_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"start_paragraph_id" integer NOT NULL,
	"start_character" integer NOT NULL,
	"end_paragraph_id" integer NOT NULL,
	"end_character" integer NOT NULL,
	"span_text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN IF NOT EXISTS "ask_when_none_sufficient" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN IF NOT EXISTS "indexed_at" timestamp with time zone;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "explanations" ADD CONSTRAINT "explanations_query_id_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."queries"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "explanations" ADD CONSTRAINT "explanations_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "explanations" ADD CONSTRAINT "explanations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "paragraph_index" ADD CONSTRAINT "paragraph_index_wikipedia_id_pages_wikipedia_id_fk" FOREIGN KEY ("wikipedia_id") REFERENCES "public"."pages"("wikipedia_id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "proposals" ADD CONSTRAINT "proposals_passage_id_passages_id_fk" FOREIGN KEY ("passage_id") REFERENCES "public"."passages"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "proposals" ADD CONSTRAINT "proposals_query_id_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."queries"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "proposals" ADD CONSTRAINT "proposals_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN ALTER TABLE "proposals" ADD CONSTRAINT "proposals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action; EXCEPTION WHEN duplicate_object THEN NULL; END $$;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "explanations_query_user_key" ON "explanations" USING btree ("query_id","user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "explanations_campaign_idx" ON "explanations" USING btree ("campaign_id","query_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "paragraph_index_document_idx" ON "paragraph_index" USING gin ("document");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "proposals_passage_user_key" ON "proposals" USING btree ("passage_id","user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "proposals_query_user_idx" ON "proposals" USING btree ("query_id","user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "proposals_campaign_idx" ON "proposals" USING btree ("campaign_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pages_title_folded_idx" ON "pages" USING btree (kps_fold("title") text_pattern_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pages_unindexed_idx" ON "pages" USING btree ("wikipedia_id") WHERE "pages"."indexed_at" is null or "pages"."indexed_at" < "pages"."updated_at";