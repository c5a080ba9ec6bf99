#!/usr/bin/env python3
"""The peers of qrelay's aggregation and agreement in bench/aggregate-peers.ts, on the same votes.

    python bench/peers/aggregate_peers.py VOTES.jsonl REPEATS DS_ITERATIONS

VOTES.jsonl holds one {"worker", "task", "label"} per line (what qrelay's side reads too).
Times, each as the best of REPEATS runs, from the loaded votes to the result (the data
shaping each library needs is part of its work, as qrelay's functions start from the
vote list):
- crowd-kit MajorityVote().fit_predict;
- crowd-kit DawidSkene(n_iter=DS_ITERATIONS, tol=0): exactly that many EM iterations, as
  qrelay's side runs (maxIterations DS_ITERATIONS, tolerance 0);
- statsmodels fleiss_kappa over the items with the most common rating count (qrelay's rule
  for equal counts; crowdkit_reference.py does the same);
- krippendorff.alpha (nominal) over the worker x item matrix.
Prints one JSON object: the seconds of each, the values (so the work cannot be skipped and
the two sides can be compared) and the versions used.
"""

import json
import sys
import time
from importlib.metadata import version

import krippendorff
import numpy as np
import pandas as pd
from crowdkit.aggregation import DawidSkene, MajorityVote
from statsmodels.stats.inter_rater import fleiss_kappa


def best_of(repeats, fn):
    best = float("inf")
    result = None
    for _ in range(repeats):
        started = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - started)
    return best, result


def fleiss(df, categories):
    counts = df.groupby("task").size()
    eligible = counts[counts >= 2]
    freq = eligible.value_counts()
    best = max(freq.index, key=lambda n: (freq[n], n))
    tasks = sorted(eligible[eligible == best].index)
    table = (
        df[df.task.isin(tasks)].groupby(["task", "label"]).size().unstack(fill_value=0)
        .reindex(index=tasks, columns=categories, fill_value=0)
    )
    return float(fleiss_kappa(table.to_numpy()))


def alpha(df, categories):
    index = {c: i for i, c in enumerate(categories)}
    wide = df.assign(code=df.label.map(index)).pivot(index="worker", columns="task", values="code")
    return float(krippendorff.alpha(reliability_data=wide.to_numpy(dtype=float), level_of_measurement="nominal"))


def main():
    path, repeats, iterations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with open(path, encoding="utf-8") as f:
        df = pd.DataFrame([json.loads(line) for line in f if line.strip()], columns=["worker", "task", "label"])
    categories = sorted(df.label.unique())

    def dawid_skene():
        np.random.seed(42)
        ds = DawidSkene(n_iter=iterations, tol=0.0)
        labels = ds.fit_predict(df)
        return labels, len(ds.loss_history_)

    mv_s, mv = best_of(repeats, lambda: MajorityVote().fit_predict(df))
    ds_s, (ds, ds_iterations) = best_of(repeats, dawid_skene)
    kappa_s, kappa = best_of(repeats, lambda: fleiss(df, categories))
    alpha_s, alpha_value = best_of(repeats, lambda: alpha(df, categories))
    print(json.dumps({
        "votes": len(df),
        "seconds": {"majorityVote": mv_s, "dawidSkene": ds_s, "fleissKappa": kappa_s, "krippendorffAlpha": alpha_s},
        "values": {
            "majorityVoteYes": int((mv == "yes").sum()),
            "dawidSkeneYes": int((ds == "yes").sum()),
            "dawidSkeneIterations": ds_iterations,
            "fleissKappa": kappa,
            "krippendorffAlpha": alpha_value,
        },
        "versions": {p: version(p) for p in ["crowd-kit", "statsmodels", "krippendorff", "pandas", "numpy"]},
    }))


if __name__ == "__main__":
    main()
