#!/usr/bin/env python3
"""The peer of `qrelay evaluate` in bench/qrels-evaluate.ts: the same work with ir_measures.

    python bench/peers/ir_measures_evaluate.py MEASURES BASE_QRELS NEW_QRELS RUN...

Reads both qrels, then each run in turn, and computes every measure's per-query values
under both qrels (kept, as qrelay keeps them for its output) and the means. Prints one
line per run and measure, so the work cannot be skipped.
"""

import sys

import ir_measures


def main():
    measures = [ir_measures.parse_measure(m) for m in sys.argv[1].split()]
    qrels = [ir_measures.util.QrelsConverter(ir_measures.read_trec_qrels(path)).as_dict_of_dict() for path in sys.argv[2:4]]
    kept = []
    for path in sys.argv[4:]:
        run = ir_measures.util.RunConverter(ir_measures.read_trec_run(path)).as_dict_of_dict()
        for which in qrels:
            values = list(ir_measures.iter_calc(measures, which, run))
            kept.append(values)
            sums = {}
            for v in values:
                sums[v.measure] = sums.get(v.measure, 0.0) + v.value
            for m in measures:
                print(path, m, sums.get(m, 0.0) / len(which))
        del run


if __name__ == "__main__":
    main()
