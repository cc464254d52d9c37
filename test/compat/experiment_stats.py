"""Independent statistics for Sluice's experiment results test: reads per-key values per metric and
treatment (JSON on stdin), prints what scipy and GrowthBook's gbstats compute from them (JSON).

Input:  {"alpha": 0.05, "baseline": "off", "metrics": [{"id", "proportion": bool,
          "values": {"<treatment>": [per-key values]}}], "observed": {...}, "expected": {...}}
Output: {"metrics": {"<id>": {"<treatment>": {"welch": {...}, "relative": {...}, "absolute": {...}}}},
         "bh": [...], "srm": {"pValue", "chiSquared"}}
"""
import json
import sys

import numpy as np
from scipy import stats
from gbstats.frequentist.tests import FrequentistConfig, TwoSidedTTest
from gbstats.models.statistics import ProportionStatistic, SampleMeanStatistic


def gb(stat_a, stat_b, relative, alpha):
    config = FrequentistConfig(alpha=alpha, difference_type="relative" if relative else "absolute")
    r = TwoSidedTTest(stat_a, stat_b, config).compute_result()
    return {"estimate": r.expected, "ci": list(r.ci), "pValue": r.p_value, "error": r.error_message}


def stat(values, proportion):
    x = np.asarray(values, dtype=float)
    if proportion:
        return ProportionStatistic(n=len(x), sum=float(x.sum()))
    return SampleMeanStatistic(n=len(x), sum=float(x.sum()), sum_squares=float((x * x).sum()))


def main():
    req = json.load(sys.stdin)
    alpha, baseline = req["alpha"], req["baseline"]
    out = {"metrics": {}, "pValues": []}
    for m in req["metrics"]:
        base = m["values"][baseline]
        per = {}
        for t, values in m["values"].items():
            if t == baseline:
                continue
            welch = stats.ttest_ind(values, base, equal_var=False)
            ci = welch.confidence_interval(confidence_level=1 - alpha)
            per[t] = {
                "welch": {"estimate": float(np.mean(values) - np.mean(base)), "pValue": float(welch.pvalue), "df": float(welch.df), "ci": [float(ci.low), float(ci.high)]},
                "absolute": gb(stat(base, m["proportion"]), stat(values, m["proportion"]), False, alpha),
                "relative": gb(stat(base, m["proportion"]), stat(values, m["proportion"]), True, alpha),
                "mean": float(np.mean(values)),
                "variance": float(np.var(values, ddof=1)),
                "n": len(values),
            }
        out["metrics"][m["id"]] = per
    if req.get("pValues"):
        out["bh"] = [float(p) for p in stats.false_discovery_control(req["pValues"], method="bh")]
    if req.get("observed"):
        names = sorted(req["observed"])
        total = sum(req["observed"].values())
        weights = sum(req["expected"][t] for t in names)
        chi = stats.chisquare([req["observed"][t] for t in names], [req["expected"][t] / weights * total for t in names])
        out["srm"] = {"pValue": float(chi.pvalue), "chiSquared": float(chi.statistic)}
    # The published gbstats test vector (tests/frequentist/test_tests.py), recomputed by gbstats itself.
    a = SampleMeanStatistic(n=3407, sum=1396.87, sum_squares=52377.9767)
    b = SampleMeanStatistic(n=3461, sum=2422.7, sum_squares=134698.29)
    out["vector"] = {"absolute": gb(a, b, False, 0.05), "relative": gb(a, b, True, 0.05)}
    json.dump(out, sys.stdout)


main()
