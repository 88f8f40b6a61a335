# KILT's own match_answer (facebookresearch/KILT, kilt/kilt_utils.py, unchanged; nlp=None) with
# nltk's sentence_bleu, for bench/map/run.ts:
#
#   PYTHONPATH=<dir holding kilt/> python3 bench/map/kilt-match.py KNOWLEDGE ITEMS LIMIT OUT
#
# Reads the pages the first LIMIT items name (not timed apart: see "load_seconds"), calls
# match_answer(evidence, page) on each, and writes one JSON line per item to OUT:
# {"id", "paragraph_id", "bleu", "start_character", "end_character"} (expected.jsonl's shape).
# Prints one line: KPS_BENCH_RESULT {"items", "load_seconds", "match_seconds"}.
import json
import sys
import time
import warnings

from kilt.kilt_utils import match_answer

# nltk warns on every BLEU with a missing n-gram order; the warnings are not part of the work.
warnings.filterwarnings("ignore")

knowledge, items_file, limit, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
start = time.perf_counter()
items = []
with open(items_file, encoding="utf-8") as f:
    for line in f:
        if line.strip() and len(items) < limit:
            items.append(json.loads(line))
wanted = {str(item["wikipedia_id"]) for item in items}
pages = {}
with open(knowledge, encoding="utf-8") as f:
    for line in f:
        page = json.loads(line)
        if str(page["wikipedia_id"]) in wanted:
            pages[str(page["wikipedia_id"])] = page
load_seconds = time.perf_counter() - start

start = time.perf_counter()
rows = []
for item in items:
    paragraph_id, start_character, end_character, bleu = match_answer(item["evidence"], pages[str(item["wikipedia_id"])])
    rows.append(
        {
            "id": item["id"],
            "paragraph_id": paragraph_id,
            "bleu": bleu,
            "start_character": start_character,
            "end_character": end_character,
        }
    )
match_seconds = time.perf_counter() - start

with open(out, "w", encoding="utf-8") as f:
    for row in rows:
        f.write(json.dumps(row) + "\n")
print("KPS_BENCH_RESULT " + json.dumps({"items": len(items), "load_seconds": load_seconds, "match_seconds": match_seconds}))
