-- Title search (first defined in migration 0009).
--
-- The current definitions, re-applied after the migrations on every migrate (db/sql-rules.ts):
-- edit them here. A migration that changes a table these read, or must backfill with a new
-- version, defines that version too (migrations are history); db/sql-rules.int.test.ts checks
-- that the live bodies equal these. The path of one judgment through them: docs/judgment-path.md.

-- kps_fold: lower case, Latin accents folded, in SQL so PostgreSQL 15 and PGlite agree without the
-- unaccent extension. pages_title_folded_idx indexes kps_fold(title): a change here means a reindex.
CREATE OR REPLACE FUNCTION kps_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN lower(translate(value, 'àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňòóôõöøōŏőŕŗřśŝşšţťŧùúûüũūŭůűųŵýÿŷźżžÀÁÂÃÄÅĀĂĄÇĆĈĊČĎĐÈÉÊËĒĔĖĘĚĜĞĠĢĤĦÌÍÎÏĨĪĬĮİĴĶĹĻĽĿŁÑŃŅŇÒÓÔÕÖØŌŎŐŔŖŘŚŜŞŠŢŤŦÙÚÛÜŨŪŬŮŰŲŴÝŸŶŹŻŽ', 'aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzzaaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzz'));
