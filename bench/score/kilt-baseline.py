# One run of KILT's own evaluator (facebookresearch/KILT, unchanged) for bench/score/run.ts:
#
#   PYTHONPATH=<dir holding kilt/>:<dir holding rouge/> python3 bench/score/kilt-baseline.py MODE GOLD GUESS KS
#
# MODE: page | paragraph (eval_retrieval.evaluate with rank_keys wikipedia_id, or wikipedia_id +
# start/end_paragraph_id, at the comma-separated KS) | downstream (eval_downstream.evaluate).
# Prints one line: KPS_BENCH_RESULT {"seconds": …, "result": …} (the evaluator's own print goes to
# stderr). The seconds are the evaluate() call: reading the files, checking the ids, scoring.
import contextlib
import json
import sys
import time
import types

try:
    import nltk  # noqa: F401
except ImportError:
    # kilt/kilt_utils.py imports nltk for its BLEU helper, which the two evaluators never call.
    sys.modules["nltk"] = types.ModuleType("nltk")

from kilt import eval_downstream, eval_retrieval  # noqa: E402

RANK_KEYS = {"page": ["wikipedia_id"], "paragraph": ["wikipedia_id", "start_paragraph_id", "end_paragraph_id"]}

mode, gold, guess, ks = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
start = time.perf_counter()
with contextlib.redirect_stdout(sys.stderr):
    if mode == "downstream":
        result = eval_downstream.evaluate(gold, guess)
    else:
        result = eval_retrieval.evaluate(gold, guess, ks=[int(k) for k in ks.split(",")], rank_keys=RANK_KEYS[mode])
seconds = time.perf_counter() - start
print("KPS_BENCH_RESULT " + json.dumps({"seconds": seconds, "result": result}))
